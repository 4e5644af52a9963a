/// The part of a `101 Switching Protocols` response that says what runs on the connection afterwards.
package struct WebSocketUpgrade: Sendable {
    /// Limits and timers of the connection.
    package var configuration: WebSocketConfiguration
    /// Makes the connection's handler; called once, on the connection's loop, right after the 101 is written.
    package var makeHandler: @Sendable () -> any WebSocketHandler

    package init(configuration: WebSocketConfiguration, makeHandler: @escaping @Sendable () -> any WebSocketHandler) {
        self.configuration = configuration
        self.makeHandler = makeHandler
    }
}
