import Foundation

/// A PostgreSQL cluster of one test's own, in a temporary folder on a port of its own, that the test may stop and
/// start (the failover tests), without touching the cluster every other test shares (``TestPostgres``).
package struct PrivatePostgres: Sendable {
    private let environment: [String: String]

    /// A cluster in a fresh folder. It listens only on a Unix socket in that folder, so its port number (which
    /// names the socket file) can never collide with another cluster's.
    package init() {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bmob-pg-\(UUID().uuidString.prefix(8))")
        environment = [
            "BMOB_POSTGRES_DIR": folder.path, "BMOB_POSTGRES_PORT": String(Int.random(in: 56_000...56_999)),
            "BMOB_POSTGRES_FAST": "1", "BMOB_POSTGRES_MAX_CONNECTIONS": "100",
        ]
    }

    /// Starts the server (making the cluster the first time) and returns its URL.
    @discardableResult
    package func start() throws -> String {
        try TestPostgres.script("start", environment: environment)
    }

    /// Stops the server (fast shutdown: connected clients are disconnected).
    package func stop() throws {
        _ = try TestPostgres.script("stop", environment: environment)
    }

    /// Stops the server and deletes the cluster.
    package func destroy() {
        _ = try? TestPostgres.script("destroy", environment: environment)
    }
}
