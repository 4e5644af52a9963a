import BmobIO
import BmobServer
import BmobStore
import BmobTesting
import BmobWire
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Two nodes reaching PostgreSQL through PgBouncer in session mode, as README's deployment describes: prepared
/// statements, the journal listeners' `LISTEN` and the advisory locks all go through the pooler.
///
/// Transaction mode is not tested here: it needs PgBouncer 1.21 or later for prepared statements, and Debian 12
/// ships 1.18.
@Suite(
    "Several nodes through PgBouncer",
    .enabled(if: TestPostgres.isSelected, "runs in the PostgreSQL pass of make test (BMOB_TEST_ENGINE=postgres)"))
struct PgBouncerTests {
    /// A PgBouncer in front of the test cluster, on a Unix socket in a folder of its own.
    final class Bouncer: Sendable {
        let process: ChildProcess
        let folder: URL
        let port: Int

        init(serverURL: String) throws {
            guard let components = URLComponents(string: serverURL),
                let host = components.queryItems?.first(where: { $0.name == "host" })?.value,
                let serverPort = components.queryItems?.first(where: { $0.name == "port" })?.value
            else { throw TestFailure("the test cluster's URL names no socket folder and port: \(serverURL)") }
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("bmob-pgbouncer-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            // PgBouncer refuses to run as root: it switches to `postgres`, which must write its socket here.
            chmod(folder.path, 0o777)
            port = Int.random(in: 57_000...57_999)
            let configuration = folder.appendingPathComponent("pgbouncer.ini")
            try """
                [databases]
                * = host=\(host) port=\(serverPort) user=postgres
                [pgbouncer]
                listen_addr =
                listen_port = \(port)
                unix_socket_dir = \(folder.path)
                auth_type = any
                pool_mode = session
                max_client_conn = 400
                default_pool_size = 100
                logfile = \(folder.path)/pgbouncer.log
                pidfile = \(folder.path)/pgbouncer.pid
                """.write(to: configuration, atomically: true, encoding: .utf8)
            chmod(configuration.path, 0o644)
            let asRoot = getuid() == 0
            let executable = ["/usr/sbin/pgbouncer", "/usr/local/bin/pgbouncer", "/opt/homebrew/bin/pgbouncer"]
                .first { FileManager.default.isExecutableFile(atPath: $0) }
            guard let executable else { throw TestFailure("no pgbouncer; run scripts/bootstrap.sh test") }
            process = try ChildProcess(
                executable, (asRoot ? ["-u", "postgres"] : []) + [configuration.path], error: .inherit)
            let socket = folder.appendingPathComponent(".s.PGSQL.\(port)").path
            let deadline = Date().addingTimeInterval(20)
            while !FileManager.default.fileExists(atPath: socket) {
                guard process.isRunning, Date() < deadline else {
                    process.send(SIGKILL)
                    let log = (try? String(contentsOf: folder.appendingPathComponent("pgbouncer.log"), encoding: .utf8)) ?? ""
                    throw TestFailure("PgBouncer did not start: \(log)")
                }
                usleep(20_000)
            }
        }

        /// The URL of `database` through the pooler.
        func url(database: String) -> String {
            "postgresql://postgres@/\(database)?host=\(folder.path)&port=\(port)"
        }

        deinit {
            process.send(SIGKILL)
            try? FileManager.default.removeItem(at: folder)
        }
    }

    @Test("objects, queries, schemas and realtime events across two nodes, all through the pooler; without it, 503")
    func twoNodesThroughThePooler() async throws {
        let bouncer = try await withoutBlockingThePool { try Bouncer(serverURL: try TestPostgres.url()) }
        let (database, _) = try await withoutBlockingThePool { try TestPostgres.makeDatabase() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bmob-pooled-\(UUID().uuidString)")
        defer {
            try? FileManager.default.removeItem(at: folder)
            TestPostgres.dropDatabase(database)
        }
        let url = bouncer.url(database: database)
        let first = try await TestServer.start(dataDirectory: folder) { $0.storage = .postgres(url: url) }
        let second = try await TestServer.start(dataDirectory: folder) { $0.storage = .postgres(url: url) }
        do {
            let subscriber = try await SocketIOTestClient.connect(second)
            try await subscriber.subscribe("Chat", .updateTable)
            for n in 0..<5 {
                let created = try await (n % 2 == 0 ? first : second).call("POST", "/1/classes/Chat", json: ["n": .int(Int64(n))])
                #expect(created.status == 201, "\(created.text)")
            }
            // Through the pooler: the other node's listener heard the commits, in order.
            var heard: [Int64] = []
            for _ in 0..<5 { heard.append(try await subscriber.nextEvent().data?["n"]?.int64Value ?? -1) }
            #expect(heard == [0, 1, 2, 3, 4])
            let query = try await first.call("GET", "/1/classes/Chat?where=" + queryEncoded(#"{"n":{"$gte":3}}"#) + "&count=1&order=n")
            #expect(query.json?["count"] == 2)
            #expect(query.json?["results"]?.arrayValue?.compactMap { $0["n"]?.int64Value } == [3, 4])
            // Without the pooler, the nodes answer a clear 503 (Bmob's shape), not a hang or a 500.
            bouncer.process.send(SIGKILL)
            _ = await bouncer.process.waitForExit()
            let refused = try await second.call("GET", "/1/classes/Chat?limit=1")
            #expect(refused.status == 503)
            #expect(refused.json?["code"] != nil)
        } catch {
            await first.stop()
            await second.stop()
            throw error
        }
        await first.stop()
        await second.stop()
    }
}
