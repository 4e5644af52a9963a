import BmobCore
package import BmobWire

/// One change the realtime service pushed: which table and row, what happened, and the row's data.
///
/// ```swift
/// for await message in event.eventStream() {
///     print(message.action ?? "", message.className ?? "", message.objectId ?? "")
///     print(message.data ?? [:])
/// }
/// ```
///
/// Every field but ``rawValue`` is optional, read from the server's message with these fallbacks:
/// ``className`` is `tableName`, else `className`; ``objectId`` is a non-empty top-level `objectId`, else
/// `data.objectId`. Values are plain Swift values, as `BmobObject`'s subscript returns them: `String`,
/// `Int`, `Double`, `Bool`, `[Any]`, `[String: Any]`, and `NSNull` for JSON null; Bmob's typed values
/// (dates, pointers, files) stay dictionaries with their `__type`.
///
/// The message keeps the server's JSON, so it is `Sendable` and comparable; ``data`` and ``rawValue`` build
/// dictionaries on each read.
public struct BmobEventMessage: Sendable, Hashable {
    /// The decoded `server_pub` message.
    package let publication: BmobRealtimePublication

    /// A message from a decoded publication.
    ///
    /// - Parameter publication: the `server_pub` message.
    package init(publication: BmobRealtimePublication) {
        self.publication = publication
    }

    /// The action the server reports: `updateTable`, `deleteTable`, `updateRow` or `deleteRow`.
    public var action: String? { publication.actionName }

    /// The table: the server's `tableName`, or its `className`.
    public var className: String? { publication.tableName }

    /// The row's id: a non-empty top-level `objectId`, else `data.objectId`.
    public var objectId: String? { publication.objectId }

    /// The row (for deletions, the last known row), or `nil` when the message has no `data` object.
    public var data: [String: Any]? {
        publication.data?.mapValues(BmobValueCoding.plainValue)
    }

    /// The whole message as the server sent it (`appKey`, `tableName`, `objectId`, `action`, `data`, …).
    public var rawValue: [String: Any] {
        publication.rawValue.mapValues(BmobValueCoding.plainValue)
    }
}
