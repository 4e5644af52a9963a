import BmobRealtime
import BmobWire
import Foundation
@testable import OnebaseClient
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The small pieces: URL building, the backoff, the token file.
@Suite("Onebase support")
struct OnebaseSupportTests {
    @Test("URLs: http→ws, https→wss, the socket at <base>/api/1/sync, HTTP routes under <base>/api")
    func endpoint() throws {
        let app = try OnebaseEndpoint(url: "http://127.0.0.1:8080/apps/app1/")
        #expect(app.socket.absoluteString == "ws://127.0.0.1:8080/apps/app1/api/1/sync")
        #expect(app.http("auth/password").absoluteString == "http://127.0.0.1:8080/apps/app1/api/auth/password")
        #expect(
            try OnebaseEndpoint(url: "https://api.example.com").socket.absoluteString
                == "wss://api.example.com/api/1/sync")
        #expect(try OnebaseEndpoint(url: "wss://x.example").base.absoluteString == "https://x.example")
        #expect(throws: OnebaseError.self) { try OnebaseEndpoint(url: "ftp://x") }
        #expect(throws: OnebaseError.self) { try OnebaseEndpoint(url: "not a url") }
    }

    @Test("backoff: caps 1, 2, 4, 8, 16, 16 s; the wait lies between half the cap and the cap")
    func backoff() {
        let backoff = OnebaseReconnectBackoff()
        #expect((1...6).map { backoff.cap(afterFailures: $0) } == [1, 2, 4, 8, 16, 16].map { RealtimeDuration.seconds($0) })
        #expect(backoff.delay(afterFailures: 3, unit: 0) == .seconds(2))
        #expect(backoff.delay(afterFailures: 3, unit: 1) == .seconds(4))
        #expect(backoff.delay(afterFailures: 1, unit: .nan) == .milliseconds(500))
        #expect(backoff.delay(afterFailures: 40, unit: 7) == .seconds(16))
    }

    @Test("the token file is mode 0600, replaced whole, and deleted")
    func tokenFile() throws {
        let directory = MachineHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = OnebaseFileTokenStore(fileURL: directory.appendingPathComponent("sub/token"))
        #expect(store.loadToken() == nil)
        try store.saveToken("first")
        try store.saveToken("second")
        #expect(store.loadToken() == "second")
        var info = stat()
        #expect(stat(store.fileURL.path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("sub").path) == [
                "token"
            ])
        store.deleteToken()
        #expect(store.loadToken() == nil)
    }

    @Test("query tokens: the canonical name and sorted-key JSON are the identity")
    func queryToken() throws {
        let a = try OnebaseQueryToken(name: "notes.js:list", arguments: ["b": 1, "a": ["y": 2, "x": 1]])
        let b = try OnebaseQueryToken(name: "notes:list", arguments: ["a": ["x": 1, "y": 2], "b": 1])
        #expect(a == b && a.canonical == #"{"args":{"a":{"x":1,"y":2},"b":1},"udfPath":"notes:list"}"#)
        #expect(try OnebaseQueryToken(name: "notes", arguments: [:]).path.rawValue == "notes:default")
        #expect(throws: OnebaseError.self) { try OnebaseQueryToken(name: "bad name!", arguments: [:]) }
    }
}
