import Foundation

/// The server's notion of now, injectable so tests control timestamps.
package struct ServerClock: Sendable {
    /// Milliseconds since 1970-01-01 UTC.
    package var nowMilliseconds: @Sendable () -> Int64

    package init(nowMilliseconds: @escaping @Sendable () -> Int64) {
        self.nowMilliseconds = nowMilliseconds
    }

    /// The system's wall clock.
    package static let system = ServerClock { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) }

    /// A clock stopped at `milliseconds`.
    package static func fixed(_ milliseconds: Int64) -> ServerClock {
        ServerClock { milliseconds }
    }

    package var nowSeconds: Int64 { nowMilliseconds() / 1000 }
}
