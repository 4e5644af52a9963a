import BmobStore
import BmobWire

/// The socket.io door's encoder: turns an app's committed changes into `server_pub` frames for the subscribers
/// that may see them, and takes server-side publications onto the same path.
///
/// Rules:
/// 1. Each change becomes its socket.io events (``SocketIOEvent/events(of:)``); an event nobody listens to is
///    dropped before anything else is done with it.
/// 2. Visibility is this door's decision: its subscribers are anonymous, so an event goes out only when the
///    public may read it (class permissions and the object's ACL, or permissions alone when the app sets
///    `realtimeIgnoresACL`), and `_User` objects are rendered as the public sees them (``UserPrivacy``).
/// 3. Each event is rendered and encoded once, as a WebSocket text frame shared by every subscriber, and
///    published to its topic in the door's ``RealtimeHub``.
final class SocketIOPublisher: RealtimeChangeConsumer {
    /// The door's listeners by topic.
    let hub: RealtimeHub<SocketIOTopic, SocketIOSession>
    private let logger: Logger

    init(hub: RealtimeHub<SocketIOTopic, SocketIOSession>, logger: Logger) {
        self.hub = hub
        self.logger = logger
    }

    /// Sends `publication` to the subscribers of its topic, as it is: the caller (server code, not a client)
    /// answers for what it contains.
    ///
    /// - Returns: whether anyone subscribes to the topic; `false` too for a publication without an app, a
    ///   table or a subscribe-form action.
    func publish(_ publication: BmobRealtimePublication) -> Bool {
        guard let appId = publication.appKey, let tableName = publication.tableName,
            let action = publication.action, !action.isUnsubscribe
        else { return false }
        let topic = SocketIOTopic(
            appId: appId, tableName: tableName, action: action, objectId: publication.objectId ?? "")
        guard hub.isHeard(topic) else { return false }
        return hub.publish(Self.frame(publication), to: topic)
    }

    /// The WebSocket text frame of a publication.
    static func frame(_ publication: BmobRealtimePublication) -> [UInt8] {
        WebSocketFrame(opcode: .text, payload: Array(publication.packet().encoded.utf8)).encoded()
    }

    // MARK: - RealtimeChangeConsumer

    func consume(_ changes: [RealtimeChange], of runtime: AppRuntime) async {
        let app = runtime.app
        var heard: [(event: SocketIOEvent, topic: SocketIOTopic)] = []
        for change in changes {
            for event in SocketIOEvent.events(of: change) {
                let topic = event.topic(appId: app.applicationId)
                if hub.isHeard(topic) { heard.append((event, topic)) }
            }
        }
        guard !heard.isEmpty else { return }
        let permissions = await classPermissions(of: Set(heard.map(\.event.tableName)), in: runtime)
        // Subscribers are anonymous: `_User` events carry only what the public may see.
        let renderer = ObjectRenderer(offsetSeconds: app.dateOffsetSeconds, privacy: .anonymous(app.security))
        for (event, topic) in heard {
            guard let permission = permissions[event.tableName],
                event.isVisibleToPublic(permissions: permission, ignoringACL: app.realtimeIgnoresACL)
            else { continue }
            var data: [String: JSONValue] = [:]
            if let object = event.object, let stored = StoredObject(className: event.tableName, json: object) {
                data = renderer.render(stored)
            }
            let publication = BmobRealtimePublication(
                appKey: app.applicationId, tableName: event.tableName, objectId: topic.objectId, action: event.action,
                data: data)
            hub.publish(Self.frame(publication), to: topic)
        }
    }

    /// The class permissions of `classes` (`.some(nil)`: none set, open). A class whose permissions cannot
    /// be read is left out, so its events are not sent (fail closed).
    private func classPermissions(
        of classes: Set<String>, in runtime: AppRuntime
    ) async -> [String: ClassPermissions?] {
        let names = Array(classes)
        do {
            let stored = try await runtime.store.read { transaction in
                try names.map { try transaction.classPermissions(className: $0) }
            }
            var result: [String: ClassPermissions?] = [:]
            for (name, json) in zip(names, stored) {
                if let json {
                    guard let permissions = try? ClassPermissions(json: json) else { continue }
                    result[name] = .some(permissions)
                } else {
                    result[name] = .some(nil)
                }
            }
            return result
        } catch {
            logger.error("realtime: reading class permissions of app \(runtime.app.applicationId) failed: \(error)")
            return [:]
        }
    }
}
