import BmobServer
import BmobTesting
import BmobWire
import Foundation
import Testing

/// The console in a real headless Chromium (`console_driver.py` over the DevTools protocol) against the in-process
/// server: sign in, create a class with a field and a class-level permission, add and edit an object, revert the
/// edit from its history, change its ACL, filter, open the users, roles and files views, watch a live event arrive,
/// delete and restore an object, switch to Chinese, sign in as the server admin. Screenshots of each step go to
/// `.build/test-artifacts/console/`; the server's own state is checked over REST after the driver is done.
@Suite struct ConsoleBrowserTests {
    private static let password = "console admin password"

    @Test func consoleWorksInHeadlessChromium() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bmob-console-\(UUID().uuidString)")
        try Self.password.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let artifacts = PythonPeers.packageRoot.appendingPathComponent(".build/test-artifacts/console")
        try? FileManager.default.removeItem(at: artifacts)
        try await withTestServer(configure: { $0.consolePasswordFile = file.path }) { server in
            let output = try await PythonPeer.run(
                "console_driver.py",
                [
                    "--url", server.baseURL, "--app-id", TestServer.applicationId, "--master-key", TestServer.masterKey,
                    "--password", Self.password, "--artifacts", artifacts.path,
                ],
                timeout: 110)
            let report = try #require(
                output.split(separator: "\n").last.flatMap { try? JSONParser.parse(String($0)) },
                "driver said: \(output)")

            #expect(report["problems"]?.arrayValue == [], "the page reported: \(report["problems"] ?? .null)")
            #expect(report["classCreated"]?.stringValue == "ConsoleItem")
            #expect(report["scoreType"]?.stringValue == "Number")
            #expect(report["permissions"] == ["delete": ["role:Editors": true]])
            // Typed cells, and data shown as text, never as markup.
            let typed = report["typedCells"]?.arrayValue?.compactMap(\.stringValue) ?? []
            #expect(typed.contains("Date") && typed.contains("GeoPoint"))
            #expect(report["titleCell"]?.stringValue == "hello <b>not bold</b>")
            #expect(report["markupInjected"]?.boolValue == false)
            #expect(report["afterEdit"]?["score"]?.int64Value == 2)
            #expect(report["afterEdit"]?["title"]?.stringValue == "edited")
            #expect(report["afterRevert"]?["score"]?.int64Value == 1)
            #expect(report["afterRevert"]?["title"]?.stringValue == "hello <b>not bold</b>")
            #expect(report["acl"] == ["*": ["read": true], "role:Editors": ["read": true, "write": true]])
            #expect(report["filteredRows"]?.int64Value == 1)
            #expect(report["viewErrors"]?.arrayValue == [], "\(report["viewErrors"] ?? .null)")
            #expect(report["liveEvent"]?["action"]?.stringValue == "updateTable")
            #expect(report["restored"] == report["liveEvent"]?["objectId"])
            let navigation = report["chineseNav"]?.arrayValue?.compactMap(\.stringValue) ?? []
            #expect(navigation.contains("实时监控") && navigation.contains("数据"))
            #expect(report["localStorageHasKey"]?.boolValue == false)
            #expect(report["sessionStorageHasKey"]?.boolValue == true)
            #expect(report["sessionStorageAfterSignOut"]?.int64Value == 0)
            #expect(report["wrongPassword"]?.stringValue?.contains("401") == true)
            let shots = report["screenshots"]?.arrayValue?.compactMap(\.stringValue) ?? []
            #expect(shots.count == 9)
            for shot in shots {
                let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: shot)))
                #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) && bytes.count > 5_000, "\(shot)")
            }

            // The server's own view of what the console did.
            let objectId = try #require(report["objectId"]?.stringValue)
            let stored = try await server.request(
                "GET", "/1/classes/ConsoleItem/\(objectId)", headers: server.masterHeaders)
            #expect(stored.json?["score"]?.int64Value == 1)
            #expect(stored.json?["ACL"] == ["*": ["read": true], "role:Editors": ["read": true, "write": true]])
            let history = try await server.request(
                "GET", "/1/history/ConsoleItem/\(objectId)", headers: server.masterHeaders)
            let doors = history.json?["results"]?.arrayValue?.compactMap { $0["door"]?.stringValue } ?? []
            #expect(doors.contains { $0.hasPrefix("revert:") })
        }
    }
}
