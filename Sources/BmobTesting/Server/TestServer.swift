package import BmobServer
package import BmobIO
import BmobWire
package import BmobStore
package import Foundation

/// An in-process Bmob server on a loopback port with a fresh temporary data folder and one known app —
/// for our tests and for SDK users' tests.
///
/// ```swift
/// let server = try await TestServer.start()
/// defer { Task { await server.stop() } }
/// let response = try await server.request("GET", "/1/timestamp", headers: server.appHeaders)
/// ```
package final class TestServer: Sendable {
    /// The app every test server has.
    package static let applicationId = "testapp0000000000000000000000001"
    package static let restKey = "testrestkey000000000000000000001"
    package static let masterKey = "testmasterkey0000000000000000001"
    package static let secretKey = "testsecretkey001"
    /// The test app's realtime channel credentials.
    package static let channels = AppChannels(appId: "123456", key: "testchannelkey01", secret: "testchannelsecret01")

    package let server: Server
    package let dataDirectory: URL
    private let ownsDirectory: Bool
    /// The server's ``Server/run()``: a start/stop harness cannot scope it, so it holds the task, and ``stop()``
    /// ends it.
    private let running: Task<Void, Never>

    private init(server: Server, dataDirectory: URL, ownsDirectory: Bool) {
        self.server = server
        self.dataDirectory = dataDirectory
        self.ownsDirectory = ownsDirectory
        self.running = Task { await server.run() }
    }

    /// The default logger of test servers: server faults (the 5xx a request answered, with their cause) on
    /// standard error, so that a suite that fails on a 500 shows why in the test run's output.
    package static var faultLogger: Logger {
        Logger(label: "test-server", level: .error)
    }

    /// Starts a server on `127.0.0.1`, port 0.
    ///
    /// - Parameters:
    ///   - dataDirectory: reuse this folder (to test restarts); by default a new temporary one, removed by ``stop()``.
    ///   - clock: the server's clock.
    ///   - loopClock: the event loops' clock, which every connection timeout is measured against: a
    ///     ``BmobIO/ManualClock`` (`.manual(clock)`) lets a test advance time instead of waiting for it.
    ///   - providers: where SMS codes and mails go (a ``RecordingMessageProvider``, say); by default the
    ///     development outbox in the data folder (read it with ``outbox()``).
    ///   - security: the test app's security policy, when a fresh data folder gets one (defaults otherwise).
    ///   - webhooks: the test app's webhooks, likewise.
    ///   - history: the test app's history retention, likewise.
    ///   - channels: the test app's channel credentials and rules, likewise.
    ///   - functions: the Swift cloud functions the server runs.
    ///   - configure: changes to the configuration (limits, timeouts, loops) before start.
    package static func start(
        dataDirectory: URL? = nil,
        clock: ServerClock = .system,
        loopClock: EventLoopClock = .system,
        logger: Logger = TestServer.faultLogger,
        providers: MessageProviders? = nil,
        authValidators: AuthDataValidators? = nil,
        functions: CloudFunctions = CloudFunctions(),
        security: AppSecurity = AppSecurity(),
        webhooks: AppWebhooks = AppWebhooks(),
        history: JournalRetention = .all,
        channels: AppChannels = TestServer.channels,
        configure: (inout ServerConfiguration) -> Void = { _ in }
    ) async throws -> TestServer {
        let directory = dataDirectory ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("bmob-test-\(UUID().uuidString)", isDirectory: true)
        var configuration = ServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.loops = 2
        configuration.dataDirectory = directory.path
        // A whole suite runs at once on two cores, where a connection may wait seconds for its request's first
        // byte to be read, and a handshake for its WebSocket. Tests of these limits set their own.
        configuration.realtimeHandshakeLifetimeSeconds = 60
        configuration.headerTimeoutSeconds = 60
        // On PostgreSQL, a database of its own, unless `configure` chose the storage itself.
        let unset = StorageConfiguration.postgres(url: "")
        if TestPostgres.isSelected { configuration.storage = unset }
        // A line per request would flood the test run's output; the access log's own tests turn it on.
        configuration.accessLog = false
        configure(&configuration)
        if configuration.storage == unset {
            configuration.storage = .postgres(url: try await withoutBlockingThePool { try postgresDatabase(for: directory) })
        }
        let registry = AppRegistry(dataDirectory: directory.path, storage: configuration.storage)
        // A folder a test filled with its own apps brings them to PostgreSQL, as a server's first start does.
        try registry.importFileIfEmpty()
        if try registry.load().isEmpty {
            _ = try registry.create(
                name: "Test",
                applicationId: applicationId,
                restKey: restKey,
                masterKey: masterKey,
                secretKey: secretKey,
                authProviders: Dictionary(uniqueKeysWithValues: AuthPlatforms.known.map { ($0, ["type": "trust"]) }),
                security: security,
                webhooks: webhooks,
                channels: channels,
                now: clock.nowSeconds
            )
            if history != .all {
                _ = try registry.update(applicationId: applicationId) { $0.history = history }
            }
        }
        let server = try await Server.start(
            configuration: configuration, clock: clock, loopClock: loopClock, logger: logger, providers: providers,
            authValidators: authValidators, functions: functions)
        return TestServer(server: server, dataDirectory: directory, ownsDirectory: dataDirectory == nil)
    }

    /// The listening port.
    package var port: Int { Int(server.localAddress.port) }

    /// `http://127.0.0.1:<port>`.
    package var baseURL: String { server.baseURL }

    /// The headers of the test app with its REST key.
    package var appHeaders: [(String, String)] {
        [("X-Bmob-Application-Id", Self.applicationId), ("X-Bmob-REST-API-Key", Self.restKey)]
    }

    /// The headers of the test app with its Master Key.
    package var masterHeaders: [(String, String)] {
        [("X-Bmob-Application-Id", Self.applicationId), ("X-Bmob-Master-Key", Self.masterKey)]
    }

    /// A new raw connection to the server, from `source` (a `127.x.y.z` address) when given.
    package func connect(
        source: String? = nil, timeout: Double = RawHTTPConnection.defaultTimeout
    ) throws -> RawHTTPConnection {
        try RawHTTPConnection(port: port, source: source, timeout: timeout)
    }

    /// Sends one request on a new connection (from `source`, when given) and reads the response.
    package func request(
        _ method: String,
        _ target: String,
        headers: [(String, String)] = [],
        body: [UInt8]? = nil,
        source: String? = nil
    ) async throws -> RawHTTPResponse {
        let connection = try connect(source: source)
        try await connection.send(HTTPRequestText.make(method, target, headers: headers, body: body))
        return try await connection.readResponse(toHead: method == "HEAD")
    }

    /// Shuts the server down gracefully and removes its temporary folder (and on PostgreSQL its database).
    package func stop() async {
        await server.shutdown()
        await running.value
        if ownsDirectory {
            if let name = try? String(contentsOf: Self.postgresDatabaseFile(dataDirectory), encoding: .utf8) {
                _ = try? await withoutBlockingThePool { TestPostgres.dropDatabase(name) }
            }
            try? FileManager.default.removeItem(at: dataDirectory)
        }
    }

    /// The URL of the PostgreSQL database of the server whose data folder is `directory`: made on first start and
    /// named in the folder, so that a restarted server finds the same data.
    private static func postgresDatabase(for directory: URL) throws -> String {
        let file = postgresDatabaseFile(directory)
        if let name = try? String(contentsOf: file, encoding: .utf8) {
            return try PostgresDatabases.create(name, on: try TestPostgres.url())
        }
        let (name, url) = try TestPostgres.makeDatabase()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try name.write(to: file, atomically: true, encoding: .utf8)
        return url
    }

    /// The file in a data folder that names the folder's PostgreSQL database: a test that made a database itself
    /// writes its name there, so that servers on that folder use it whatever the engine selected.
    package static func postgresDatabaseFile(_ directory: URL) -> URL {
        directory.appendingPathComponent("postgres-database")
    }
}
