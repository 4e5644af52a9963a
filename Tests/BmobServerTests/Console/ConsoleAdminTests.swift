import BmobServer
import BmobTesting
import BmobWire
import Foundation
import Testing

/// `POST /1/console/apps`: the server admin's sign-in with the console password, which lists every app and its keys;
/// refused without the setting, for a wrong password, for malformed bodies, and slowed after repeated failures.
@Suite struct ConsoleAdminTests {
    private static let password = "correct horse battery staple"

    private func passwordFile(_ text: String) throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bmob-console-\(UUID().uuidString)")
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    private func withConsoleServer(clock: ServerClock = .system, _ body: (TestServer) async throws -> Void) async throws
    {
        let file = try passwordFile(Self.password + "\n")
        defer { try? FileManager.default.removeItem(at: file) }
        try await withTestServer(clock: clock, configure: { $0.consolePasswordFile = file.path }, body)
    }

    private func signIn(_ server: TestServer, _ body: String, source: String? = nil) async throws -> RawHTTPResponse {
        try await server.request(
            "POST", "/1/console/apps", headers: [("Content-Type", "application/json")], body: Array(body.utf8),
            source: source)
    }

    @Test func withoutThePasswordSettingThereIsNoAdminSignIn() async throws {
        try await withTestServer { server in
            let response = try await signIn(server, #"{"password":"anything at all"}"#)
            #expect(response.status == 404)
            #expect(response.json?["code"]?.int64Value == 404)
            #expect(!response.text.contains(TestServer.masterKey))
        }
    }

    @Test func thePasswordListsEveryAppWithItsKeys() async throws {
        try await withConsoleServer { server in
            let response = try await signIn(server, JSONValue.object(["password": .string(Self.password)]).jsonString)
            #expect(response.status == 200)
            #expect(response.headers["Cache-Control"] == "no-store")
            let apps = try #require(response.json?["results"]?.arrayValue)
            #expect(apps.count == 1)
            #expect(apps.first?["applicationId"]?.stringValue == TestServer.applicationId)
            #expect(apps.first?["masterKey"]?.stringValue == TestServer.masterKey)
            #expect(apps.first?["restKey"]?.stringValue == TestServer.restKey)
            #expect(apps.first?["secretKey"] == nil)
        }
    }

    @Test func hostileBodiesAreRefusedWithBmobErrors() async throws {
        try await withConsoleServer { server in
            for (body, code) in [
                ("{", 107), ("[]", 107), ("\"password\"", 107), ("{}", 118), (#"{"password":""}"#, 118),
                (#"{"password":12345678901234}"#, 118), (#"{"password":null}"#, 118), (#"{"password":["a"]}"#, 118),
                (#"{"password":"wrong password"}"#, 401), (#"{"password":"correct horse battery staple "}"#, 401),
                (#"{"password":"CORRECT HORSE BATTERY STAPLE"}"#, 401),
            ] {
                // Each from its own address, so the failures do not add up to the backoff here.
                let response = try await signIn(server, body, source: "127.0.1.\(code % 200 + 1)")
                #expect(response.json?["code"]?.int64Value == Int64(code), "\(body): \(response.text)")
                #expect(response.json?["error"]?.stringValue != nil)
                #expect(!response.text.contains(TestServer.masterKey))
            }
            let huge = try await signIn(server, #"{"password":""# + String(repeating: "x", count: 8000) + #""}"#)
            #expect(huge.status == 413)
        }
    }

    @Test func repeatedFailuresFromAnAddressWaitThenOthersStillSignIn() async throws {
        let clock = TestClock(start: 1_800_000_000_000)
        try await withConsoleServer(clock: clock.serverClock) { server in
            for _ in 0..<5 {
                let wrong = try await signIn(server, #"{"password":"not the password"}"#, source: "127.0.0.9")
                #expect(wrong.status == 401)
            }
            // Five failures from the address: even the right password waits, and says how long.
            let waiting = try await signIn(
                server, JSONValue.object(["password": .string(Self.password)]).jsonString, source: "127.0.0.9")
            #expect(waiting.json?["code"]?.int64Value == 10076)
            #expect(waiting.json?["error"]?.stringValue?.contains("try again in 1 second") == true)
            #expect(!waiting.text.contains(TestServer.masterKey))
            // Another address is not slowed by them.
            let other = try await signIn(
                server, JSONValue.object(["password": .string(Self.password)]).jsonString, source: "127.0.0.10")
            #expect(other.status == 200)
            // Once the wait is over, the right password works, and forgets the address's failures.
            clock.advance(milliseconds: 1_001)
            let later = try await signIn(
                server, JSONValue.object(["password": .string(Self.password)]).jsonString, source: "127.0.0.9")
            #expect(later.status == 200)
            let next = try await signIn(server, #"{"password":"not the password"}"#, source: "127.0.0.9")
            #expect(next.status == 401)
        }
    }

    @Test func thePasswordFileIsASettingOfEveryKind() throws {
        let fromFlag = try ConfigurationLoader.load(
            flags: ["--console-password-file": "/etc/bmob/console"], environment: [:])
        #expect(fromFlag.consolePasswordFile == "/etc/bmob/console")
        let fromEnvironment = try ConfigurationLoader.load(
            flags: [:], environment: ["BMOB_CONSOLE_PASSWORD_FILE": "/run/secrets/console"])
        #expect(fromEnvironment.consolePasswordFile == "/run/secrets/console")
        #expect(try ConfigurationLoader.load(flags: [:], environment: [:]).consolePasswordFile == nil)
        #expect(throws: ConfigurationError.self) {
            try ConfigurationLoader.load(flags: ["--console-password-file": ""], environment: [:])
        }
    }

    @Test func unusablePasswordFilesStopTheServerFromStarting() throws {
        var configuration = ServerConfiguration()
        configuration.consolePasswordFile = "/nonexistent/bmob-console-password"
        #expect(throws: ConfigurationError.self) { try ConsoleAdmin.load(configuration) }
        let short = try passwordFile("short\n")
        defer { try? FileManager.default.removeItem(at: short) }
        configuration.consolePasswordFile = short.path
        #expect(throws: ConfigurationError.self) { try ConsoleAdmin.load(configuration) }
        let good = try passwordFile("  a long enough password  \nsecond line ignored\n")
        defer { try? FileManager.default.removeItem(at: good) }
        configuration.consolePasswordFile = good.path
        #expect(try ConsoleAdmin.load(configuration) != nil)
        configuration.consolePasswordFile = nil
        #expect(try ConsoleAdmin.load(configuration) == nil)
    }
}
