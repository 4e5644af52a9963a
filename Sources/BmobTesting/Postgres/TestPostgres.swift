import BmobStore
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The PostgreSQL server the tests run against: `BMOB_TEST_POSTGRES_URL` when set, else a throwaway cluster that
/// `scripts/postgres.sh start` brings up (once per test process; it stays up for the next run, and `make test`
/// stops it at the end). Each test works in schemas or databases of its own, so runs never see each other's data.
package enum TestPostgres {
    /// The server's URL.
    ///
    /// - Throws: when no URL is set and the script fails (PostgreSQL not installed: `scripts/bootstrap.sh test`).
    package static func url() throws -> String {
        try resolve()
    }

    /// Drops the schema of a test's app (best effort: a test that failed to open never made one).
    package static func dropSchema(of applicationId: String) {
        guard let url = try? url() else { return }
        try? PostgresDatabases.dropSchema(PostgresSchemaName(applicationId: applicationId), on: url)
    }

    /// Whether the server suites run on PostgreSQL: `BMOB_TEST_ENGINE=postgres` (`make test` runs them once on
    /// each engine).
    package static var isSelected: Bool {
        ProcessInfo.processInfo.environment["BMOB_TEST_ENGINE"] == "postgres"
    }

    /// A fresh database for one test server, and its URL.
    package static func makeDatabase() throws -> (name: String, url: String) {
        let name = "bmobtest_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased())"
        return (name, try PostgresDatabases.create(name, on: try url()))
    }

    /// Drops a database that ``makeDatabase()`` made (best effort).
    package static func dropDatabase(_ name: String) {
        guard let url = try? url() else { return }
        try? PostgresDatabases.drop(name, on: url)
    }

    private static let cached = Mutex<String?>(nil)

    /// Returns the cached URL, or finds or starts the server under the lock, so that concurrent tests start it once.
    private static func resolve() throws -> String {
        try cached.withLock { url in
            if let url { return url }
            let found = try environmentURL() ?? start()
            url = found
            return found
        }
    }

    private static func environmentURL() -> String? {
        guard let url = ProcessInfo.processInfo.environment["BMOB_TEST_POSTGRES_URL"], !url.isEmpty else { return nil }
        return url
    }

    /// Runs `scripts/postgres.sh start` with durability traded for speed, and returns the URL it prints.
    private static func start() throws -> String {
        try script("start", environment: ["BMOB_POSTGRES_FAST": "1"])
    }

    /// Runs `scripts/postgres.sh <command>` with `environment` added, and returns what it printed.
    ///
    /// Through `system(3)` rather than `Process`: `Process` waits on a run loop, which hung when every thread of
    /// the test pool was waiting for the lock of ``url()``.
    package static func script(_ command: String, environment: [String: String] = [:]) throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let output = FileManager.default.temporaryDirectory
            .appendingPathComponent("bmob-postgres-out-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        let assignments = environment.sorted { $0.key < $1.key }.map { "\($0.key)='\($0.value)' " }.joined()
        let status = system("\(assignments)'\(root.path)/scripts/postgres.sh' \(command) > '\(output.path)'")
        guard status == 0 else {
            throw TestPostgresError(message: "scripts/postgres.sh \(command) failed (\(status))")
        }
        return ((try? String(contentsOf: output, encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// Why the test PostgreSQL is not available.
package struct TestPostgresError: Error, CustomStringConvertible {
    let message: String
    package var description: String { message }
}
