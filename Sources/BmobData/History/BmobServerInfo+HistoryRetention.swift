package import BmobWire

extension BmobServerInfo {
    /// How much of each object's history a server keeps. `nil` means no such bound: with both `nil`, every
    /// change is kept.
    public struct HistoryRetention: Sendable, Hashable {
        /// The most changes kept per object.
        public let keepChanges: Int?
        /// How many days changes are kept.
        public let keepDays: Int?

        /// The retention in a `server_info` answer's `history` member.
        package init(json: JSONValue) {
            keepChanges = json["keepChanges"]?.int64Value.flatMap { Int(exactly: $0) }
            keepDays = json["keepDays"]?.int64Value.flatMap { Int(exactly: $0) }
        }
    }
}
