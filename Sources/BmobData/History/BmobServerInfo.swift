import BmobCore
package import BmobWire
import Foundation

/// What a server says about itself (`/8/server_info`): its version, what it can do, its limits, how long it
/// keeps history, and where its realtime service is.
///
/// ```swift
/// let info = try await Bmob.serverInfo()
/// if info.supports("history") { … }
/// ```
///
/// Read leniently: members the SDK does not know are ignored (and kept in ``rawJSON``), and missing ones are
/// `nil` or empty.
///
/// ## Topics
///
/// ### The server
/// - ``version``
/// - ``capabilities``
/// - ``supports(_:)``
///
/// ### Settings
/// - ``limits``
/// - ``historyRetention``
/// - ``realtimeAddress``
///
/// ### Everything it sent
/// - ``rawJSON``
public struct BmobServerInfo: Sendable, Hashable {
    /// The server's version text, such as `1.4.0`; `nil` when it did not send one.
    public let version: String?
    /// The features the server offers, by name: `files`, `functions`, `history`, `realtime`, …
    public let capabilities: [String]
    /// Sizes the server accepts.
    public let limits: Limits
    /// How much history the server keeps.
    public let historyRetention: HistoryRetention
    /// The realtime (socket.io) service: a URL, or a path on the API's host; `nil` when not given.
    public let realtimeAddress: String?
    /// The answer as the server sent it.
    package let json: JSONValue

    /// The answer as the server sent it, as JSON text: members this SDK does not read are here too.
    public var rawJSON: String { json.jsonString }

    /// Whether ``capabilities`` lists `capability`.
    ///
    /// - Parameter capability: A name such as `history`.
    public func supports(_ capability: String) -> Bool { capabilities.contains(capability) }

    /// The information in a `server_info` answer's data.
    package init(json: JSONValue) {
        self.json = json
        self.version = json["version"]?.stringValue
        self.capabilities = (json["capabilities"]?.arrayValue ?? []).compactMap(\.stringValue)
        self.limits = Limits(json: json["limits"] ?? .null)
        self.historyRetention = HistoryRetention(json: json["history"] ?? .null)
        self.realtimeAddress = json["realtime"]?["socketIO"]?.stringValue
    }
}
