/// What a journal row records. Stored by its raw value; unknown values read back as-is, so a newer server's
/// operations do not break an older reader.
package struct JournalOperation: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    package var rawValue: String

    package init(rawValue: String) {
        self.rawValue = rawValue
    }

    package var description: String { rawValue }

    /// An object was inserted: `before` is `nil`, `after` the new object.
    package static let create = Self(rawValue: "create")
    /// An object was replaced: `before` and `after` are the whole object.
    package static let update = Self(rawValue: "update")
    /// An object was deleted: `before` is the object, `after` is `nil`.
    package static let delete = Self(rawValue: "delete")
    /// A class and all its objects were dropped: no objectId, `before` and `after` are `nil`.
    package static let dropClass = Self(rawValue: "dropClass")
}
