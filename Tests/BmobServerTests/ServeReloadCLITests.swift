import BmobIO
import BmobTesting
import BmobWire
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `bmob serve` on SIGHUP: the apps and the reloadable settings change at once, open connections stay, and a
/// malformed registry or config file keeps everything as it was.
@Suite struct ServeReloadCLITests {
    /// A running `bmob serve` with its standard error collected as it comes.
    final class Served: Sendable {
        let process: ChildProcess
        let port: Int
        let applicationId: String
        let restKey: String
        let data: String
        let config: String
        private let log = LockedValue("")

        init(data: String, config: String) async throws {
            self.data = data
            self.config = config
            let (process, text) = try await withoutBlockingThePool {
                try CLITests.serve(["--port", "0", "--data", data, "--config", config], error: .pipe)
            }
            self.process = process
            let lines = text.split(separator: "\n").map(String.init)
            func value(_ label: String) -> String {
                lines.first { $0.contains(label) }?.split(separator: " ").last.map(String.init) ?? ""
            }
            applicationId = value("Application ID:")
            restKey = value("REST API Key:")
            port = Int(value("listening on").split(separator: ":").last ?? "") ?? 0
            let log = self.log
            _ = BmobIO.Thread.spawn(name: "serve-stderr") {
                while true {
                    let chunk = ChildProcess.read(process.error!)
                    if chunk.isEmpty { return }
                    log.withLock { $0 += String(decoding: chunk, as: UTF8.self) }
                }
            }
        }

        /// Everything the server logged so far.
        var logged: String { log.withLock { $0 } }

        /// Sends SIGHUP and returns the log written from then on, once it holds `marker` (the reload's end).
        func reload(until marker: String) async throws -> String {
            let start = logged.utf8.count
            process.send(SIGHUP)
            for _ in 0..<300 {
                let added = String(logged.utf8.dropFirst(start)) ?? ""
                if added.contains(marker) { return added }
                try await Task.sleep(for: .milliseconds(50))
            }
            throw TestFailure("no '\(marker)' in the log within 15 s after SIGHUP:\n\(logged)")
        }

        /// The `apps` array of `apps.json`, changed by `edit` and written back (as an operator edits it).
        func editApps(_ edit: (inout [[String: Any]]) -> Void) throws {
            let path = data + "/apps.json"
            let document = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
            var apps = (document as? [String: Any])?["apps"] as? [[String: Any]] ?? []
            edit(&apps)
            try JSONSerialization.data(withJSONObject: ["apps": apps]).write(to: URL(fileURLWithPath: path))
        }
    }

    private static func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("bmob-reload-\(UUID().uuidString)-\(name)").path
    }

    private static func timestamp(_ connection: RawHTTPConnection, id: String, key: String) async throws -> RawHTTPResponse {
        try await connection.send(
            HTTPRequestText.make(
                "GET", "/1/timestamp", headers: [("X-Bmob-Application-Id", id), ("X-Bmob-REST-API-Key", key)]))
        return try await connection.readResponse()
    }

    @Test func sighupAppliesNewAppsKeysRemovalsAndTheLogLevelAtOnceAndKeepsConnections() async throws {
        let data = Self.temporaryPath("data")
        let config = Self.temporaryPath("config.json")
        defer {
            try? FileManager.default.removeItem(atPath: data)
            try? FileManager.default.removeItem(atPath: config)
        }
        try Data(#"{"logLevel": "info"}"#.utf8).write(to: URL(fileURLWithPath: config))
        let server = try await Served(data: data, config: config)
        defer { server.process.send(SIGTERM) }
        let id = server.applicationId
        #expect(id.count == 32)

        // A keep-alive connection and a realtime subscriber, open across every reload below.
        let connection = try RawHTTPConnection(port: server.port)
        #expect(try await Self.timestamp(connection, id: id, key: server.restKey).status == 200)
        let subscriber = try await SocketIOTestClient.connect(port: server.port)
        try await subscriber.subscribe("Note", .updateTable, appKey: id)

        // An app added, the development app's REST key changed, the log level raised to debug and the loops changed.
        let added = "reloadadded0000000000000000000001"
        try server.editApps { apps in
            var second = apps[0]
            second["applicationId"] = added
            second["name"] = "Added"
            second["restKey"] = "added-rest-key"
            second["masterKey"] = "added-master-key"
            second["secretKey"] = "added-secret-key"
            second.removeValue(forKey: "channels")
            apps[0]["restKey"] = "changed-rest-key"
            apps.append(second)
        }
        try Data(#"{"logLevel": "debug", "loops": 3}"#.utf8).write(to: URL(fileURLWithPath: config))
        let reloaded = try await server.reload(until: "reloaded on SIGHUP")
        #expect(reloaded.contains("added \(added)"))
        #expect(reloaded.contains("changed \(id)"))
        #expect(reloaded.contains("logLevel debug"))
        #expect(reloaded.contains("loops changed; these apply after a restart"))

        // Applied at once, on the connection opened before: the new app answers its first request, the old key is
        // refused and the new one accepted.
        #expect(try await Self.timestamp(connection, id: added, key: "added-rest-key").status == 200)
        let refused = try await Self.timestamp(connection, id: id, key: server.restKey)
        #expect(refused.status == 401)
        #expect(refused.json?["code"] != nil)
        #expect(try await Self.timestamp(connection, id: id, key: "changed-rest-key").status == 200)

        // The subscriber, connected before the reload, still gets the app's changes.
        try await connection.send(
            HTTPRequestText.make(
                "POST", "/1/classes/Note",
                headers: [("X-Bmob-Application-Id", id), ("X-Bmob-REST-API-Key", "changed-rest-key")],
                json: #"{"text": "after the reload"}"#))
        #expect(try await connection.readResponse().status == 201)
        #expect(try await subscriber.nextEvent().data?["text"] == "after the reload")

        // A removed app stops being served; the connection that used it stays open for the others.
        try server.editApps { apps in apps.removeAll { $0["applicationId"] as? String == added } }
        let removal = try await server.reload(until: "reloaded on SIGHUP")
        #expect(removal.contains("removed \(added)"))
        let gone = try await Self.timestamp(connection, id: added, key: "added-rest-key")
        #expect(gone.status != 200)
        #expect(try await Self.timestamp(connection, id: id, key: "changed-rest-key").status == 200)

        // SIGTERM still drains and stops.
        server.process.send(SIGTERM)
        #expect(await server.process.waitForExit() == .exited(0))
        #expect(await connection.waitForClose())
    }

    @Test func sighupWithAMalformedRegistryOrConfigKeepsServingWithTheOldSettings() async throws {
        let data = Self.temporaryPath("data")
        let config = Self.temporaryPath("config.json")
        defer {
            try? FileManager.default.removeItem(atPath: data)
            try? FileManager.default.removeItem(atPath: config)
        }
        try Data(#"{"logLevel": "info"}"#.utf8).write(to: URL(fileURLWithPath: config))
        let server = try await Served(data: data, config: config)
        defer { server.process.send(SIGTERM) }
        let id = server.applicationId
        let connection = try RawHTTPConnection(port: server.port)
        #expect(try await Self.timestamp(connection, id: id, key: server.restKey).status == 200)

        // Not JSON at all, then JSON whose app lacks its keys: neither is taken, the app keeps being served.
        for malformed in [#"{"apps": [{"applicationId": "#, #"{"apps": [{"applicationId": "x"}]}"#] {
            try Data(malformed.utf8).write(to: URL(fileURLWithPath: data + "/apps.json"))
            let log = try await server.reload(until: "reloaded on SIGHUP")
            #expect(log.contains("the apps were not reloaded, the running apps keep their settings"))
            #expect(!log.contains("removed"))
            #expect(try await Self.timestamp(connection, id: id, key: server.restKey).status == 200)
        }

        // A config file with an unknown setting or a bad value: the settings are kept, the server serves on.
        for malformed in [#"{"logLevel": "loud"}"#, #"{"noSuchSetting": 1}"#, "{"] {
            try Data(malformed.utf8).write(to: URL(fileURLWithPath: config))
            let log = try await server.reload(until: "the configuration was not reloaded")
            #expect(log.contains("the running settings are kept"))
            #expect(try await Self.timestamp(connection, id: id, key: server.restKey).status == 200)
        }
        // The second request on another connection too: nothing was dropped or closed.
        let fresh = try RawHTTPConnection(port: server.port)
        #expect(try await Self.timestamp(fresh, id: id, key: server.restKey).status == 200)

        server.process.send(SIGTERM)
        #expect(await server.process.waitForExit() == .exited(0))
    }
}
