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
enum TestPostgres {
    /// The server's URL.
    ///
    /// - Throws: when no URL is set and the script fails (PostgreSQL not installed: `scripts/bootstrap.sh test`).
    static func url() throws -> String {
        try resolve()
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
    ///
    /// Through `system(3)` rather than `Process`: `Process` waits on a run loop, which hung when every thread of
    /// the test pool was waiting for this lock.
    private static func start() throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("bmob-postgres-url-\(getpid())")
        defer { try? FileManager.default.removeItem(at: output) }
        let command = "BMOB_POSTGRES_FAST=1 '\(root.path)/scripts/postgres.sh' start > '\(output.path)'"
        let status = system(command)
        guard status == 0 else { throw TestPostgresError(message: "scripts/postgres.sh start failed (\(status))") }
        let url = (try? String(contentsOf: output, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let url, !url.isEmpty else { throw TestPostgresError(message: "scripts/postgres.sh start printed no URL") }
        return url
    }
}

/// Why the test PostgreSQL is not available.
struct TestPostgresError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
