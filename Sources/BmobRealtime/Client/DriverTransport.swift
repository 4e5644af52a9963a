import BmobWire
package import Foundation

/// How a realtime client's driver (`BirdRealtime`, `OnebaseClient`) opens one connection attempt's transport and
/// turns its events into state-machine events: connects in a task started here, passes text messages on, ignores
/// binary ones (both protocols are text only) and reports the closure.
///
/// The callbacks are the client's; each captures the client weakly, so an attempt in flight does not keep a client
/// that the app has let go of.
package enum DriverTransport {
    /// Connects `transport` to `url` in a new task.
    ///
    /// - Parameters:
    ///   - transport: the attempt's transport.
    ///   - url: where to connect.
    ///   - timeout: how long connecting and the opening handshake may take.
    ///   - opened: runs once `connect` returns; messages may already have been passed on (the machines tell events
    ///     apart by their attempt).
    ///   - failed: runs when connecting throws.
    ///   - text: runs for each text message.
    ///   - closed: runs when the transport closes.
    package static func open(
        _ transport: any WebSocketTransport, to url: URL, timeout: RealtimeDuration,
        opened: (@Sendable () -> Void)? = nil,
        failed: @escaping @Sendable () -> Void,
        text: @escaping @Sendable (String) -> Void,
        closed: @escaping @Sendable (WebSocketTransportClosure) -> Void
    ) {
        Task {
            do {
                try await transport.connect(
                    to: url, headers: [], timeout: timeout,
                    onEvent: { event in
                        switch event {
                        case .message(.text(let message)):
                            text(message)
                        case .message(.binary):
                            // The protocols are text only; binary messages are ignored.
                            break
                        case .closed(let closure):
                            closed(closure)
                        }
                    })
                opened?()
            } catch {
                failed()
            }
        }
    }
}
