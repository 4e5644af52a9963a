/// Who made a journaled change and through which door: recorded in each journal row of a write, for history
/// and audit. A string literal is an author without a door (`"test"`, a server task's name).
package struct JournalAuthor: Sendable, Equatable, ExpressibleByStringLiteral {
    /// The user id, `master`, or the name of the server's own task; `nil` for an anonymous caller.
    package var caller: String?
    /// The protocol the change came in through (`rest`, `native`, …), if any.
    package var door: String?

    /// An author.
    package init(caller: String?, door: String? = nil) {
        self.caller = caller
        self.door = door
    }

    /// An author named by `value`, without a door.
    package init(stringLiteral value: String) {
        self.init(caller: value)
    }
}
