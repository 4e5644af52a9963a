#if canImport(Security)
    public import Foundation
    import Security

    /// A token store in the Keychain (a generic password item): the default on Apple platforms.
    ///
    /// The item is readable after the device's first unlock and stays on this device
    /// (`kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`).
    public struct OnebaseKeychainTokenStore: OnebaseTokenStore {
        /// The item's service.
        public let service: String
        /// The item's account.
        public let account: String

        /// A store for the item `service` / `account`.
        ///
        /// - Parameters:
        ///   - service: the item's service, such as `"onebase"`.
        ///   - account: the item's account, such as the server's URL.
        public init(service: String, account: String) {
            self.service = service
            self.account = account
        }

        private var query: [String: Any] {
            [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
                kSecAttrAccount as String: account,
            ]
        }

        /// The item's token, if it exists.
        public func loadToken() -> String? {
            var query = query
            query[kSecReturnData as String] = true
            query[kSecMatchLimit as String] = kSecMatchLimitOne
            var result: CFTypeRef?
            guard SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess, let data = result as? Data
            else {
                return nil
            }
            return String(data: data, encoding: .utf8)
        }

        /// Stores `token` in the item.
        ///
        /// - Throws: ``OnebaseError`` with the Keychain's status when it refuses.
        public func saveToken(_ token: String) throws {
            let data = Data(token.utf8)
            let update: [String: Any] = [
                kSecValueData as String: data,
                kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
            ]
            var status = SecItemUpdate(query as CFDictionary, update as CFDictionary)
            if status == errSecItemNotFound {
                var item = query
                item.merge(update) { _, new in new }
                status = SecItemAdd(item as CFDictionary, nil)
            }
            guard status == errSecSuccess else {
                throw OnebaseError(message: "the Keychain refused the token (status \(status))")
            }
        }

        /// Deletes the item.
        public func deleteToken() {
            SecItemDelete(query as CFDictionary)
        }
    }
#endif
