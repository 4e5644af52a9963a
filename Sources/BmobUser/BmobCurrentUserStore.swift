import BmobCore
import Foundation
#if canImport(Security)
import Security
#endif

/// Keeps the logged-in user between launches: in the Keychain on Apple platforms, elsewhere in a file only
/// its owner can read (mode 0600) under the SDK's local storage folder. What is stored is the user's JSON and
/// its session token, for one app.
enum BmobCurrentUserStore {
    private static let account = "current-user"
    private static let service = "cn.bmob.sdk"

    /// The saved record for `appKey`, or `nil`.
    static func load(appKey: String) -> Data? {
        #if canImport(Security)
        var query = keychainQuery(appKey)
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: CFTypeRef?
        guard SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess else { return nil }
        return result as? Data
        #else
        return try? Data(contentsOf: fileURL(appKey))
        #endif
    }

    /// Saves the record for `appKey`, replacing any earlier one.
    static func save(_ data: Data, appKey: String) {
        #if canImport(Security)
        let query = keychainQuery(appKey)
        let attributes: [String: Any] = [
            kSecValueData as String: data,
            kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
        ]
        if SecItemUpdate(query as CFDictionary, attributes as CFDictionary) == errSecItemNotFound {
            SecItemAdd(query.merging(attributes) { _, new in new } as CFDictionary, nil)
        }
        #else
        let url = fileURL(appKey)
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        // Create it private first, then write: the token is never readable by others, even briefly.
        if !FileManager.default.fileExists(atPath: url.path) {
            _ = FileManager.default.createFile(atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o600])
        }
        try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        if let handle = try? FileHandle(forWritingTo: url) {
            try? handle.truncate(atOffset: 0)
            try? handle.write(contentsOf: data)
            try? handle.close()
        }
        #endif
    }

    /// Forgets the record for `appKey`.
    static func clear(appKey: String) {
        #if canImport(Security)
        SecItemDelete(keychainQuery(appKey) as CFDictionary)
        #else
        try? FileManager.default.removeItem(at: fileURL(appKey))
        #endif
    }

    #if canImport(Security)
    private static func keychainQuery(_ appKey: String) -> [String: Any] {
        [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: "\(account).\(appKey)",
        ]
    }
    #else
    /// The file for `appKey`.
    static func fileURL(_ appKey: String) -> URL {
        let safe = String(appKey.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }.map(Character.init))
        return BmobLocalStorage.root.appendingPathComponent("user", isDirectory: true)
            .appendingPathComponent("\(account)-\(safe.isEmpty ? "default" : safe).json")
    }
    #endif
}
