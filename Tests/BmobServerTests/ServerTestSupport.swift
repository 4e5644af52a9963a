import BmobIO
import BmobServer
import BmobStore
import BmobTesting
import BmobWire
import Foundation

/// Starts a test server (its app with the `security` policy, its loops on `loopClock`, serving `functions`), runs
/// `body`, and always stops the server.
func withTestServer(
    clock: ServerClock = .system,
    loopClock: EventLoopClock = .system,
    security: AppSecurity = AppSecurity(),
    functions: CloudFunctions = CloudFunctions(),
    configure: (inout ServerConfiguration) -> Void = { _ in },
    _ body: (TestServer) async throws -> Void
) async throws {
    let server = try await TestServer.start(
        clock: clock, loopClock: loopClock, functions: functions, security: security, configure: configure)
    do {
        try await body(server)
    } catch {
        await server.stop()
        throw error
    }
    await server.stop()
}

/// Starts `count` servers on one fresh PostgreSQL database and one data folder (the apps file), with the test app's
/// `channels`, runs `body` with them and the database's URL, and stops them and drops the database; `configure` sets
/// node `index`'s configuration further, given the database's URL.
func withPostgresNodes(
    _ count: Int, channels: AppChannels = TestServer.channels,
    configure: (Int, String, inout ServerConfiguration) -> Void = { _, _, _ in },
    _ body: ([TestServer], String) async throws -> Void
) async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bmob-nodes-\(UUID().uuidString)")
    let (database, url) = try await withoutBlockingThePool { try TestPostgres.makeDatabase() }
    defer { try? FileManager.default.removeItem(at: folder) }
    var nodes: [TestServer] = []
    do {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try database.write(to: TestServer.postgresDatabaseFile(folder), atomically: true, encoding: .utf8)
        for index in 0..<count {
            nodes.append(
                try await TestServer.start(dataDirectory: folder, channels: channels) {
                    $0.storage = .postgres(url: url)
                    configure(index, url, &$0)
                })
        }
        try await body(nodes, url)
    } catch {
        for node in nodes { await node.stop() }
        _ = try? await withoutBlockingThePool { TestPostgres.dropDatabase(database) }
        throw error
    }
    for node in nodes { await node.stop() }
    _ = try? await withoutBlockingThePool { TestPostgres.dropDatabase(database) }
}

extension TestServer {
    /// Sends a JSON request with the app's REST key (or the Master Key) and returns the response; `source` (a
    /// `127.x.y.z` address) makes it come from another client address.
    func call(
        _ method: String,
        _ target: String,
        json: JSONValue? = nil,
        master: Bool = false,
        headers extra: [(String, String)] = [],
        source: String? = nil
    ) async throws -> RawHTTPResponse {
        var headers = (master ? masterHeaders : appHeaders) + extra
        if json != nil { headers.append(("Content-Type", "application/json")) }
        return try await request(method, target, headers: headers, body: json.map(\.jsonBytes), source: source)
    }

    /// Signs a user up with username and password (plus `extra` fields) and returns (objectId, sessionToken).
    func signUpUser(_ username: String, password: String, _ extra: [String: JSONValue] = [:]) async throws -> (
        String, String
    ) {
        var body = extra
        body["username"] = .string(username)
        body["password"] = .string(password)
        let response = try await call("POST", "/1/users", json: .object(body))
        guard response.status == 201, let id = response.json?["objectId"]?.stringValue,
            let token = response.json?["sessionToken"]?.stringValue
        else { throw TestFailure("signup failed: \(response.status) \(response.text)") }
        return (id, token)
    }

    /// Creates an object and returns its id.
    func create(_ className: String, _ fields: JSONValue) async throws -> String {
        let response = try await call("POST", "/1/classes/\(className)", json: fields)
        guard response.status == 201, let objectId = response.json?["objectId"]?.stringValue else {
            throw TestFailure("create \(className) failed: \(response.status) \(response.text)")
        }
        return objectId
    }
}

/// A failed test precondition, with a message.
struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Percent-encodes a query parameter value.
func queryEncoded(_ text: String) -> String {
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._~")
    return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
}

/// Checks `condition` every 50 ms until it holds or `timeout` passes, and returns whether it held: for effects
/// that happen in the background (pruning, settings reloads). Quick on an idle machine; the generous deadline
/// is for a fully loaded test run.
func eventually(timeout: Duration = .seconds(30), _ condition: () async throws -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try await Task.sleep(for: .milliseconds(50))
    }
    return try await condition()
}
