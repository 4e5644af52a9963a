import BmobCrypto

/// The `User-Agent` of a native `/8/` client, `<10-digit unix seconds><platform><version>` (`1761040954iOS18.0.0`,
/// `1761040954unknown0.0.0` on Linux): the text two of the protocol's keys are derived from.
///
/// - the `/8/secret` request is keyed with its last 16 bytes (``NativeEnvelope/tailKey(_:)``);
/// - the `Accept-Id` header, and errors for a caller whose app is unknown, with bytes 1 to 16
///   (``NativeEnvelope/acceptIdKey(userAgent:)``).
package struct NativeUserAgent: Sendable, Hashable {
    /// The shortest usable text: bytes 1 to 16 must exist for the `Accept-Id` key.
    package static let minimumLength = 17

    /// The header as sent.
    package let text: String

    /// The header's text, or `nil` when it is missing or shorter than ``minimumLength`` bytes.
    package init?(_ header: String?) {
        guard let header, header.utf8.count >= Self.minimumLength else { return nil }
        text = header
    }

    /// The key of the `/8/secret` request body.
    package var secretRequestKey: [UInt8] { NativeEnvelope.tailKey(text) }

    /// The key of the `Accept-Id` header and of errors sent before the app is known.
    package var acceptIdKey: [UInt8] { NativeEnvelope.acceptIdKey(userAgent: text) }

    /// The same text with its leading 10-digit timestamp moved by `seconds` (zero-padded to 10 digits), or
    /// `nil` when it does not start with 10 digits or the result would not fit in 10.
    package func shifted(by seconds: Int64) -> NativeUserAgent? {
        let bytes = Array(text.utf8)
        let digits = bytes.prefix(10)
        guard digits.count == 10, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let stamp = Int64(String(decoding: digits, as: UTF8.self))
        else { return nil }
        let (sum, overflow) = stamp.addingReportingOverflow(seconds)
        guard !overflow, (0...9_999_999_999).contains(sum) else { return nil }
        let moved = String(sum)
        let padded = String(repeating: "0", count: 10 - moved.utf8.count) + moved
        return NativeUserAgent(padded + String(decoding: bytes.dropFirst(10), as: UTF8.self))
    }

    /// The Application ID in a `/8/secret` body (`{"appKey": …, "client", "v", "appSign"}`).
    ///
    /// - Throws: ``BmobRequestError`` 107 for a body that does not open with ``secretRequestKey``, 118 when
    ///   `appKey` is missing or not a string.
    package func secretApplicationId(body: some Collection<UInt8>) throws(BmobRequestError) -> String {
        let members: [String: JSONValue]
        do {
            members = try NativeEnvelope.openJSON(body, key: secretRequestKey)
        } catch {
            throw BmobRequestError(envelope: error)
        }
        guard let appKey = members["appKey"]?.stringValue, !appKey.isEmpty else {
            throw BmobRequestError(.missingParameter, "appKey (the Application ID) is required")
        }
        return appKey
    }

    /// The Application IDs an `Accept-Id` header may hold, most likely first.
    ///
    /// The vendor Swift SDK keys `Accept-Id` with a `User-Agent` it generates separately from the one it sends,
    /// so the two can differ by a second: the header is tried with this text's key, then with the timestamp one
    /// second earlier and one second later. A wrong key usually fails the padding check; when it does not, the
    /// result is kept only if it looks like an app id (1 to 128 visible ASCII characters), and the caller looks
    /// each candidate up.
    ///
    /// - Throws: ``BmobRequestError`` 401 when the header is not base64 or no key opens it.
    package func applicationIds(acceptId: some Collection<UInt8>) throws(BmobRequestError) -> [String] {
        guard let ciphertext = Base64.decode(acceptId), !ciphertext.isEmpty else {
            throw BmobRequestError(.unauthorized, "Accept-Id is not base64 text")
        }
        var candidates: [String] = []
        for agent in [self, shifted(by: -1), shifted(by: 1)] {
            guard let key = agent?.acceptIdKey, let plaintext = AES128CBC.decrypt(ciphertext, key: key, iv: key),
                (1...128).contains(plaintext.count), plaintext.allSatisfy({ $0 > 0x20 && $0 < 0x7F })
            else { continue }
            let applicationId = String(decoding: plaintext, as: UTF8.self)
            if !candidates.contains(applicationId) { candidates.append(applicationId) }
        }
        guard !candidates.isEmpty else {
            throw BmobRequestError(.unauthorized, "Accept-Id does not decrypt with a key from this User-Agent")
        }
        return candidates
    }
}
