package import BmobWire

extension BmobServerInfo {
    /// Sizes a server accepts; each is `nil` when the server did not say.
    public struct Limits: Sendable, Hashable {
        /// The largest request body, in bytes.
        public let bodyBytes: Int?
        /// The most operations in one batch request.
        public let batchSize: Int?
        /// Files larger than this many bytes are uploaded in parts.
        public let uploadThresholdBytes: Int?

        /// The limits in a `server_info` answer's `limits` member.
        package init(json: JSONValue) {
            bodyBytes = json["bodyBytes"]?.int64Value.flatMap { Int(exactly: $0) }
            batchSize = json["batchSize"]?.int64Value.flatMap { Int(exactly: $0) }
            uploadThresholdBytes = json["uploadThresholdBytes"]?.int64Value.flatMap { Int(exactly: $0) }
        }
    }
}
