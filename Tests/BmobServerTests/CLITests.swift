import BmobIO
import BmobStore
import BmobTesting
import BmobWire
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The built `bmob` binary, driven as scripts drive it: stdout, stderr and exit status.
@Suite struct CLITests {
    /// `.build/<config>/bmob`, next to the test bundle.
    static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("bmob")
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `bmob` with `arguments` to its end, on a thread of its own: a blocking wait on Swift's shared executor
    /// (two threads on two cores) would stall every in-process test server of the suite meanwhile.
    private func run(_ arguments: [String]) async throws -> Result {
        try await Self.runOnItsOwnThread(arguments)
    }

    static func runBlocking(_ arguments: [String]) throws -> Result {
        let process = try ChildProcess(Self.executable.path, arguments, output: .pipe, error: .pipe)
        // Both pipes are read at once, so that a full one cannot stall the other.
        let errors = LockedValue<[UInt8]>([])
        let errorReader = BmobIO.Thread.spawn(name: "cli-stderr") {
            let bytes = ChildProcess.readToEnd(process.error!)
            errors.withLock { $0 = bytes }
        }
        let stdout = ChildProcess.readToEnd(process.output!)
        errorReader.join()
        let termination = try Self.waitBlocking(process)
        return Result(
            status: termination.status,
            stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: errors.withLock { $0 }, as: UTF8.self)
        )
    }

    /// The child's end, waited for on this thread (the tests that call it are synchronous).
    private static func waitBlocking(_ process: ChildProcess) throws -> ChildProcess.Termination {
        let ended = DispatchSemaphore(value: 0)
        process.onTermination { _ in ended.signal() }
        guard ended.wait(timeout: .now() + 120) == .success, let termination = process.termination else {
            process.send(SIGKILL)
            throw TestFailure("bmob did not exit within 120 s")
        }
        return termination
    }

    /// Starts `bmob serve` on port 0 and returns it with everything it printed up to its listening line.
    private func startServe(data: String) async throws -> (process: ChildProcess, output: String) {
        try await withoutBlockingThePool { try Self.serve(["--port", "0", "--data", data]) }
    }

    /// Starts `bmob serve` with `arguments` and returns it with everything it printed up to the end of its
    /// listening line (or its end, when it exits first); its standard error goes to `error`. It blocks: call it
    /// through `withoutBlockingThePool`.
    static func serve(
        _ arguments: [String], error: ChildProcess.Stream = .null
    ) throws -> (process: ChildProcess, output: String) {
        let process = try ChildProcess(executable.path, ["serve"] + arguments, output: .pipe, error: error)
        var text = ""
        while !(text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().contains { $0.hasPrefix("listening on ") }) {
            let chunk = ChildProcess.read(process.output!)
            if chunk.isEmpty { break }  // the process ended
            text += String(decoding: chunk, as: UTF8.self)
        }
        return (process, text)
    }

    private func temporaryDirectory() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("bmob-cli-\(UUID().uuidString)").path
    }

    @Test func appsCreatePrintsTheAppAndListShowsIt() async throws {
        let data = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let created = try await run(["apps", "create", "--data", data, "--name", "Demo", "--app-id", "demo", "--rest-key", "rk"])
        #expect(created.status == 0)
        let app = try JSONParser.parse(created.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(app["name"] == "Demo")
        #expect(app["applicationId"] == "demo")
        #expect(app["restKey"] == "rk")
        #expect(app["masterKey"]?.stringValue?.count == 32)
        #expect(app["secretKey"]?.stringValue?.count == 16)

        let listed = try await run(["apps", "list", "--data", data])
        #expect(listed.status == 0)
        #expect(try JSONParser.parse(listed.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) == .array([app]))

        let duplicate = try await run(["apps", "create", "--data", data, "--name", "Again", "--app-id", "demo"])
        #expect(duplicate.status == 1)
        #expect(duplicate.stderr.contains("already exists"))
    }

    @Test func appsWebhooksSetsPrintsAndRefusesBadWebhooks() async throws {
        let data = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        #expect(try await run(["apps", "create", "--data", data, "--name", "Demo", "--app-id", "demo"]).status == 0)
        let empty = try await run(["apps", "webhooks", "--data", data, "--app-id", "demo"])
        #expect(empty.status == 0)
        #expect(try JSONParser.parse(empty.stdout.trimmingCharacters(in: .whitespacesAndNewlines))["functions"] == [:])

        let hooks = #"{"functions": {"greet": "https://hooks.example.com/greet"}, "triggers": {"Score": {"beforeSave": "http://127.0.0.1:9000/s"}}}"#
        let set = try await run(["apps", "webhooks", "--data", data, "--app-id", "demo", "--set", hooks])
        #expect(set.status == 0)
        let printed = try JSONParser.parse(set.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(printed["functions"]?["greet"] == "https://hooks.example.com/greet")
        #expect(printed["triggers"]?["Score"]?["beforeSave"] == "http://127.0.0.1:9000/s")
        // A secret was made, and stays when the webhooks change again.
        let secret = try #require(printed["secret"]?.stringValue)
        #expect(secret.count >= 16)
        let again = try await run(["apps", "webhooks", "--data", data, "--app-id", "demo", "--set", #"{"functions": {}}"#])
        #expect(try JSONParser.parse(again.stdout.trimmingCharacters(in: .whitespacesAndNewlines))["secret"]?.stringValue == secret)
        // The keys are untouched, and the list shows the webhooks.
        let listed = try JSONParser.parse(try await run(["apps", "list", "--data", data]).stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(listed.arrayValue?.first?["applicationId"] == "demo")
        #expect(listed.arrayValue?.first?["webhooks"]?["secret"]?.stringValue == secret)

        let bad = try await run(["apps", "webhooks", "--data", data, "--app-id", "demo", "--set", #"{"functions": {"f": "ftp://x"}}"#])
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("http://"))
        let unknown = try await run(["apps", "webhooks", "--data", data, "--app-id", "nope", "--set", "{}"])
        #expect(unknown.status == 1)
        #expect(try await run(["apps", "webhooks", "--data", data, "--app-id", "demo", "--set", "[1]"]).status == 2)
    }

    @Test func appsHistorySetsAndPrintsTheRetention() async throws {
        let data = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        #expect(try await run(["apps", "create", "--data", data, "--name", "Demo", "--app-id", "demo"]).status == 0)
        let shown = try await run(["apps", "history", "--data", data, "--app-id", "demo"])
        #expect(try JSONParser.parse(shown.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) == ["keepChanges": .null, "keepDays": .null])
        let set = try await run(["apps", "history", "--data", data, "--app-id", "demo", "--keep-changes", "20", "--keep-days", "90"])
        #expect(set.status == 0, "\(set.stderr)")
        #expect(try JSONParser.parse(set.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) == ["keepChanges": 20, "keepDays": 90])
        let unbounded = try await run(["apps", "history", "--data", data, "--app-id", "demo", "--keep-days", "all"])
        #expect(try JSONParser.parse(unbounded.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) == ["keepChanges": 20, "keepDays": .null])
        let listed = try JSONParser.parse(try await run(["apps", "list", "--data", data]).stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(listed.arrayValue?.first?["history"] == ["keepChanges": 20, "keepDays": .null])
        for bad in ["0", "-3", "lots"] {
            let refused = try await run(["apps", "history", "--data", data, "--app-id", "demo", "--keep-changes", bad])
            #expect(refused.status == 2 && refused.stderr.contains("--keep-changes"))
        }
        #expect(try await run(["apps", "history", "--data", data, "--app-id", "nope", "--keep-days", "3"]).status == 1)
    }

    @Test func appsChannelsPrintsMakesAndTogglesClientEvents() async throws {
        let data = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let created = try await run([
            "apps", "create", "--data", data, "--name", "Demo", "--app-id", "demo", "--channels-app-id", "4242",
            "--channels-key", "demochannelkey", "--channels-secret", "demochannelsecret",
        ])
        #expect(created.status == 0, "\(created.stderr)")
        let channels = try JSONParser.parse(created.stdout.trimmingCharacters(in: .whitespacesAndNewlines))["channels"]
        #expect(channels == ["appId": "4242", "key": "demochannelkey", "secret": "demochannelsecret", "clientEvents": false])
        let shown = try await run(["apps", "channels", "--data", data, "--app-id", "demo"])
        #expect(try JSONParser.parse(shown.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) == channels)
        let toggled = try await run(["apps", "channels", "--data", data, "--app-id", "demo", "--client-events", "on"])
        #expect(try JSONParser.parse(toggled.stdout.trimmingCharacters(in: .whitespacesAndNewlines))["clientEvents"] == true)
        // Random credentials for a second app never collide with the first's; chosen ones must not either.
        let second = try await run(["apps", "create", "--data", data, "--name", "Two", "--app-id", "two"])
        let secondChannels = try JSONParser.parse(second.stdout.trimmingCharacters(in: .whitespacesAndNewlines))["channels"]
        #expect(secondChannels?["appId"]?.stringValue?.allSatisfy(\.isNumber) == true)
        #expect(secondChannels?["key"] != channels?["key"])
        let taken = try await run(["apps", "create", "--data", data, "--name", "Three", "--channels-key", "demochannelkey"])
        #expect(taken.status == 1 && taken.stderr.contains("channels-key"))
        for bad in [["--channels-app-id", "12a"], ["--channels-key", "short"], ["--channels-secret", "has:colon:inside"]] {
            let refused = try await run(["apps", "create", "--data", data, "--name", "Bad"] + bad)
            #expect(refused.status == 1 && refused.stderr.contains(bad[0].dropFirst(2)), "\(bad): \(refused.stderr)")
        }
        let hooked = try await run(["apps", "channels", "--data", data, "--app-id", "demo", "--webhook", "https://hooks.example.com/c"])
        #expect(try JSONParser.parse(hooked.stdout.trimmingCharacters(in: .whitespacesAndNewlines))["webhookURL"] == "https://hooks.example.com/c")
        #expect(try await run(["apps", "channels", "--data", data, "--app-id", "demo", "--webhook", "ftp://x"]).status == 1)
        let unhooked = try await run(["apps", "channels", "--data", data, "--app-id", "demo", "--webhook", "none"])
        #expect(try JSONParser.parse(unhooked.stdout.trimmingCharacters(in: .whitespacesAndNewlines))["webhookURL"] == nil)
        let authorized = try await run([
            "apps", "channels", "--data", data, "--app-id", "demo", "--authorized-connections", "on", "--subscription-count", "on",
        ])
        let both = try JSONParser.parse(authorized.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(both["authorizedConnections"] == true && both["subscriptionCount"] == true, "\(authorized.stdout)")
        let reread = try await run(["apps", "channels", "--data", data, "--app-id", "demo"])
        #expect(try JSONParser.parse(reread.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) == both)
        let off = try await run(["apps", "channels", "--data", data, "--app-id", "demo", "--authorized-connections", "off"])
        #expect(try JSONParser.parse(off.stdout.trimmingCharacters(in: .whitespacesAndNewlines))["authorizedConnections"] == nil)
        #expect(try await run(["apps", "channels", "--data", data, "--app-id", "demo", "--subscription-count", "yes"]).status == 2)
        #expect(try await run(["apps", "channels", "--data", data, "--app-id", "demo", "--client-events", "maybe"]).status == 2)
        #expect(try await run(["apps", "channels", "--data", data, "--app-id", "demo", "--create=yes"]).status == 2)
    }

    @Test func appsListOfAnEmptyFolderIsAnEmptyArray() async throws {
        let listed = try await run(["apps", "list", "--data", temporaryDirectory()])
        #expect(listed.status == 0)
        #expect(listed.stdout == "[]\n")
    }

    @Test(arguments: [
        ["serve", "--bogus", "1"],
        ["apps", "create", "--name", "x"],
        ["frobnicate"],
        ["serve", "--port"],
    ])
    func usageErrorsExitWith2(arguments: [String]) async throws {
        let result = try await run(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("bmob: "))
    }

    @Test func badSettingsExitWith1AndNameTheSetting() async throws {
        let result = try await run(["serve", "--port", "70000", "--data", temporaryDirectory()])
        #expect(result.status == 1)
        #expect(result.stderr.contains("port"))
    }

    @Test func serveHelpListsEverySetting() async throws {
        let result = try await run(["serve", "--help"])
        #expect(result.status == 0)
        for flag in ["--host", "--port", "--data", "--config", "--log-level", "BMOB_PORT"] {
            #expect(result.stdout.contains(flag))
        }
    }

    @Test func serveCreatesADevelopmentAppPrintsOneListeningLineAndStopsOnSIGTERM() async throws {
        let data = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let (process, text) = try await startServe(data: data)
        // A failed expectation that throws must not leave a server running after the tests.
        defer { process.send(SIGTERM) }
        let lines = text.split(separator: "\n").map(String.init)
        let listening = lines.filter { $0.hasPrefix("listening on ") }
        #expect(listening.count == 1)
        let url = listening.first.map { String($0.dropFirst("listening on ".count)) } ?? ""
        #expect(url.hasPrefix("http://127.0.0.1:"))
        let applicationId = lines.first { $0.contains("Application ID:") }?.split(separator: " ").last.map(String.init)
        let restKey = lines.first { $0.contains("REST API Key:") }?.split(separator: " ").last.map(String.init)
        #expect(applicationId?.count == 32)

        let port = Int(url.split(separator: ":").last ?? "") ?? 0
        let connection = try RawHTTPConnection(port: port)
        try await connection.send(HTTPRequestText.make("GET", "/health"))
        #expect(try await connection.readResponse().json == ["status": "ok"])
        try await connection.send(
            HTTPRequestText.make(
                "GET", "/1/timestamp",
                headers: [("X-Bmob-Application-Id", applicationId ?? ""), ("X-Bmob-REST-API-Key", restKey ?? "")]))
        #expect(try await connection.readResponse().status == 200)

        process.send(SIGTERM)
        #expect(await process.waitForExit() == .exited(0))
        #expect(await connection.waitForClose())

        // A second start reuses the app and prints no keys.
        let (second, secondText) = try await startServe(data: data)
        defer { second.send(SIGTERM) }
        second.send(SIGINT)
        #expect(!secondText.contains("Application ID"))
        #expect(await second.waitForExit() == .exited(0))
    }

    @Test func migrateCopiesEveryAppIntoPostgreSQLAndPrintsTheCounts() async throws {
        let data = temporaryDirectory()
        let applicationId = "cli_migrate_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased())"
        defer {
            try? FileManager.default.removeItem(atPath: data)
            TestPostgres.dropSchema(of: applicationId)
        }
        #expect(try await run(["apps", "create", "--data", data, "--name", "Demo", "--app-id", applicationId]).status == 0)
        let folder = data + "/apps/" + applicationId
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let store = try await SQLiteStore.open(.init(path: folder + "/data.sqlite"))
        try await store.write(caller: nil) { transaction in
            for index in 0..<12 {
                try transaction.insert(
                    StoredObject(className: "Note", objectId: "n\(index)", createdAt: 1, updatedAt: 2, fields: ["n": .int(Int64(index))]))
            }
        }
        await store.close()
        let url = try TestPostgres.url()

        let first = try await run(["migrate", "--from", data, "--to", url, "--page-size", "5"])
        #expect(first.status == 0, "\(first.stdout) \(first.stderr)")
        #expect(first.stdout.contains("complete"))
        #expect(first.stdout.split(separator: "\n").contains { $0.split(separator: " ") == ["Note", "12", "12"] })
        // Not a terminal: plain progress lines.
        #expect(first.stderr.contains("\(applicationId): Note"))
        #expect(!first.stderr.contains("\r"))
        let again = try await run(["migrate", "--from", data, "--to", url, "--app", applicationId])
        #expect(again.status == 0)
        #expect(again.stdout.split(separator: "\n").contains { $0.split(separator: " ") == ["Note", "12", "12"] })

        #expect(try await run(["migrate", "--from", data]).status == 2)
        #expect(try await run(["migrate", "--help"]).stdout.contains("Stop the server first"))
        #expect(try await run(["help"]).stdout.contains("migrate"))
    }
}
