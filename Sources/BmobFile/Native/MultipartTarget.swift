import BmobCore
import BmobWire
import Foundation

/// Where and how a large file goes: `/8/cdn`'s `upload` block, an S3 endpoint (path style) with the key and
/// short-lived credentials for it.
struct MultipartTarget: Sendable, Equatable {
    /// The S3 endpoint, without a trailing slash: requests go to `<endpoint>/<bucket>/<key>`.
    var endpoint: URL
    /// The SigV4 region.
    var region: String
    /// The bucket.
    var bucket: String
    /// The storage key, `yyyy/MM/dd/<name>.<ext>`.
    var key: String
    /// Bytes per part (the last one may be shorter).
    var partSize: Int
    /// What the requests are signed with.
    var credentials: UploadCredentials
    /// The server's own token for this upload, which resumes it (`/8/cdn`'s `resume`) and registers it
    /// (`/8/savecdnupload`): with an S3 bucket the credentials come from its STS and are not the server's.
    /// The credentials' session token when the server sends none (the local provider's are the same).
    var uploadToken: String

    /// Reads the `upload` block.
    ///
    /// - Throws: ``BmobError/jsonParsingFailed`` when a member is missing or out of range.
    init(json: JSONValue) throws(BmobError) {
        guard var endpointText = json["endpoint"]?.stringValue,
            let region = json["region"]?.stringValue, !region.isEmpty,
            let bucket = json["bucket"]?.stringValue, !bucket.isEmpty,
            let key = json["key"]?.stringValue, !key.isEmpty,
            let partSize = json["partSize"]?.int64Value, partSize > 0, partSize <= Int64(Int32.max)
        else { throw .jsonParsingFailed }
        while endpointText.hasSuffix("/") { endpointText.removeLast() }
        guard let endpoint = URL(string: endpointText), let scheme = endpoint.scheme?.lowercased(),
            scheme == "http" || scheme == "https", endpoint.host != nil
        else { throw .jsonParsingFailed }
        self.endpoint = endpoint
        self.region = region
        self.bucket = bucket
        self.key = key
        self.partSize = Int(partSize)
        self.credentials = try UploadCredentials(json: json["credentials"])
        self.uploadToken = json["uploadToken"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 } ?? credentials.sessionToken
    }
}
