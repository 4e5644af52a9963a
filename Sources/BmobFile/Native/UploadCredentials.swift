import BmobCore
import BmobWire
import Foundation

/// The short-lived credentials `/8/cdn` issues for one multipart upload: they allow that one key only.
struct UploadCredentials: Sendable, Equatable {
    /// The access key id.
    var accessKeyId: String
    /// The secret the requests are signed with.
    var secretAccessKey: String
    /// Sent as `x-amz-security-token`; also what proves to `/8/cdn` and `/8/savecdnupload` which key was granted.
    var sessionToken: String
    /// When they stop working, when the server said.
    var expiration: Date?

    /// Reads `{accessKeyId, secretAccessKey, sessionToken, expiration}`; `expiration` may be ISO 8601 text or
    /// seconds (or milliseconds) since 1970.
    ///
    /// - Throws: ``BmobError/jsonParsingFailed`` when a key is missing.
    init(json: JSONValue?) throws(BmobError) {
        guard let json, let accessKeyId = json["accessKeyId"]?.stringValue, !accessKeyId.isEmpty,
            let secretAccessKey = json["secretAccessKey"]?.stringValue, !secretAccessKey.isEmpty,
            let sessionToken = json["sessionToken"]?.stringValue, !sessionToken.isEmpty
        else { throw .jsonParsingFailed }
        self.accessKeyId = accessKeyId
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
        self.expiration = json["expiration"].flatMap(Self.date)
    }

    /// Whether they expire within `margin` seconds of `now`.
    func expires(within margin: TimeInterval, of now: Date = Date()) -> Bool {
        guard let expiration else { return false }
        return expiration.timeIntervalSince(now) < margin
    }

    private static func date(_ value: JSONValue) -> Date? {
        if let number = value.doubleValue {
            return Date(timeIntervalSince1970: number > 100_000_000_000 ? number / 1000 : number)
        }
        guard let text = value.stringValue else { return nil }
        if let seconds = Double(text) { return Date(timeIntervalSince1970: seconds) }
        let withFraction = ISO8601DateFormatter()
        withFraction.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return withFraction.date(from: text) ?? ISO8601DateFormatter().date(from: text)
            ?? BmobValueCoding.date(from: text)
    }
}
