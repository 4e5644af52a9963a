/// Which door a WebSocket belongs to, for the open-connections gauge; chosen from the route that upgraded it.
package enum WebSocketKind: String, Sendable, CaseIterable {
    case socketIO = "socketio"
    case channels
    case sync
    case other

    /// The kind of the WebSocket routes with this pattern.
    package init(routePattern pattern: String) {
        if pattern.hasPrefix("/socket.io") {
            self = .socketIO
        } else if pattern.hasPrefix("/app/") {
            self = .channels
        } else if pattern.hasSuffix("/sync") {
            self = .sync
        } else {
            self = .other
        }
    }
}
