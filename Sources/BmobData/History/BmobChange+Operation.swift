extension BmobChange {
    /// What a change did: ``create``, ``update`` or ``delete``. Values a newer server sends are kept as they
    /// came, in ``rawValue``, so they can be shown and compared.
    public struct Operation: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The server's name for it: `create`, `update`, `delete`, or another name.
        public let rawValue: String

        /// An operation with the server's name for it.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// The object was created.
        public static let create = Operation(rawValue: "create")
        /// Fields of the object changed (its ACL included).
        public static let update = Operation(rawValue: "update")
        /// The object was deleted.
        public static let delete = Operation(rawValue: "delete")

        /// The raw value.
        public var description: String { rawValue }
    }
}
