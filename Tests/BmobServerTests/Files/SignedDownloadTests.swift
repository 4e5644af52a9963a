import BmobServer
import BmobTesting
import BmobWire
import Foundation
import Synchronization
import Testing

/// Files served only at signed URLs (`fileDownloads: signed`): who may sign (`POST /2/signedFileURLs`, a read of
/// the file's record), what a signature covers (one key, one expiry), and the hostile requests around it.
@Suite struct SignedDownloadTests {
    /// A settable server clock, so that an expiry passes without waiting for it.
    final class TestTime: Sendable {
        let milliseconds = Atomic<Int64>(1_800_000_000_000)
        var clock: ServerClock { ServerClock { self.milliseconds.load(ordering: .relaxed) } }
        func advance(seconds: Int64) { milliseconds.add(seconds * 1000, ordering: .relaxed) }
    }

    private func withSignedServer(_ time: TestTime, _ body: (TestServer) async throws -> Void) async throws {
        try await withTestServer(clock: time.clock, configure: { $0.files.signedDownloads = true }, body)
    }

    private func upload(_ server: TestServer, _ name: String, _ bytes: [UInt8], session: String?) async throws -> String {
        var headers = server.appHeaders + [("Content-Type", "image/png")]
        if let session { headers.append(("X-Bmob-Session-Token", session)) }
        let response = try await server.request("POST", "/2/files/\(name)", headers: headers, body: bytes)
        return try #require(response.json?["url"]?.stringValue)
    }

    private func sign(
        _ server: TestServer, _ urls: [String], expiresIn: Int? = nil, session: String? = nil, master: Bool = false
    ) async throws -> (status: Int, json: JSONValue?) {
        var members: [String: JSONValue] = ["urls": .array(urls.map { .string($0) })]
        if let expiresIn { members["expiresIn"] = .int(Int64(expiresIn)) }
        let body = JSONValue.object(members)
        let headers = session.map { [("X-Bmob-Session-Token", $0)] } ?? []
        let response = try await server.call("POST", "/2/signedFileURLs", json: body, master: master, headers: headers)
        return (response.status, response.json)
    }

    /// The path and query of a URL the server handed out.
    private func target(_ url: String) throws -> String {
        let components = try #require(URLComponents(string: url))
        return components.percentEncodedPath + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
    }

    @Test("a file is served at its signed URL only, until the URL expires; its owner and the master key may sign")
    func signedURLs() async throws {
        let time = TestTime()
        try await withSignedServer(time) { server in
            let (_, owner) = try await server.signUpUser("owner", password: "secret123")
            let bytes = (0..<3000).map { UInt8($0 % 253) }
            let url = try await upload(server, "private.png", bytes, session: owner)

            let plain = try await server.request("GET", try target(url))
            #expect(plain.status == 403)
            #expect(plain.json?["code"] == 501)

            let signed = try await sign(server, [url], expiresIn: 600, session: owner)
            #expect(signed.status == 200)
            let signedURL = try #require(signed.json?["urls"]?.arrayValue?.first?.stringValue)
            #expect(signedURL.hasPrefix(url + "?expires="))
            #expect(signed.json?["expiresAt"]?.int64Value == time.milliseconds.load(ordering: .relaxed) / 1000 + 600)
            let download = try await server.request("GET", try target(signedURL))
            #expect(download.status == 200)
            #expect(download.body == bytes)
            #expect(download.headers["Cache-Control"] == "private, max-age=600")
            let range = try await server.request("GET", try target(signedURL), headers: [("Range", "bytes=0-9")])
            #expect(range.status == 206)
            #expect(range.body == Array(bytes[0...9]))
            #expect(try await server.request("HEAD", try target(signedURL)).status == 200)

            // The master key signs any file of its app, by key as well as by URL.
            let key = try #require(FileKey(urlOrPath: url)).rawValue
            let byMaster = try await sign(server, [key], master: true)
            #expect(byMaster.status == 200)
            let masterURL = try #require(byMaster.json?["urls"]?.arrayValue?.first?.stringValue)
            #expect(try await server.request("GET", try target(masterURL)).status == 200)

            time.advance(seconds: 601)
            let expired = try await server.request("GET", try target(signedURL))
            #expect(expired.status == 403)
            #expect(expired.json?["code"] == 501)
            #expect(expired.json?["error"]?.stringValue?.contains("expired") == true)
            // The default lifetime (an hour) still covers the master's URL.
            #expect(try await server.request("GET", try target(masterURL)).status == 200)
        }
    }

    @Test("only whoever may read the file's record signs it; others' and unknown files answer alike, 101")
    func whoMaySign() async throws {
        try await withSignedServer(TestTime()) { server in
            let (_, owner) = try await server.signUpUser("owner", password: "secret123")
            let (_, other) = try await server.signUpUser("other", password: "secret123")
            let owned = try await upload(server, "mine.png", [1, 2, 3], session: owner)
            let anonymous = try await upload(server, "anyone.png", [4, 5, 6], session: nil)

            let byOther = try await sign(server, [owned], session: other)
            #expect(byOther.json?["code"] == 101)
            #expect(try await sign(server, [owned]).json?["code"] == 101)
            // A file uploaded without a session: its record is the master key's alone.
            #expect(try await sign(server, [anonymous], session: owner).json?["code"] == 101)
            #expect(try await sign(server, [anonymous], master: true).status == 200)
            let unknown = "2026/01/01/" + String(repeating: "ab", count: 16) + ".png"
            let notFound = try await sign(server, [unknown], session: owner)
            #expect(notFound.json?["code"] == 101)
            // Someone else's file and no file read the same.
            #expect(notFound.json?["error"]?.stringValue?.hasPrefix("no such file: ") == true)
            #expect(byOther.json?["error"]?.stringValue?.hasPrefix("no such file: ") == true)
            // One file the caller may not sign refuses the whole request.
            #expect(try await sign(server, [owned, anonymous], session: owner).json?["code"] == 101)
        }
    }

    @Test("hostile downloads and sign requests: forged, moved, stretched and malformed signatures, bounds")
    func hostile() async throws {
        let time = TestTime()
        try await withSignedServer(time) { server in
            let (_, owner) = try await server.signUpUser("owner", password: "secret123")
            let first = try await upload(server, "one.png", [1], session: owner)
            let second = try await upload(server, "two.png", [2], session: owner)
            let signed = try #require(try await sign(server, [first], expiresIn: 60, session: owner).json?["urls"]?.arrayValue?.first?.stringValue)
            let query = try #require(URLComponents(string: signed)?.percentEncodedQuery)
            let items = Dictionary(uniqueKeysWithValues: try #require(URLComponents(string: signed)?.queryItems).map { ($0.name, $0.value ?? "") })
            let expires = try #require(items["expires"])
            let signature = try #require(items["signature"])

            // The signature of one file does not open another.
            #expect(try await server.request("GET", try target(second) + "?" + query).status == 403)
            // A later expiry with the same signature is refused.
            let stretched = "?expires=\(Int64(expires)! + 86_400)&signature=\(signature)"
            #expect(try await server.request("GET", try target(first) + stretched).status == 403)
            // A flipped digit, a short, long, empty or non-hex signature, an expiry that is not a number.
            var flipped = Array(signature)
            flipped[0] = flipped[0] == "0" ? "1" : "0"
            for bad in [
                "?expires=\(expires)&signature=\(String(flipped))", "?expires=\(expires)&signature=\(signature.prefix(10))",
                "?expires=\(expires)&signature=\(signature)00", "?expires=\(expires)&signature=",
                "?expires=\(expires)&signature=" + String(repeating: "z", count: 64),
                "?expires=abc&signature=\(signature)", "?expires=\(String(repeating: "9", count: 40))&signature=\(signature)",
                "?signature=\(signature)", "?expires=\(expires)",
            ] {
                let response = try await server.request("GET", try target(first) + bad)
                #expect(response.status == 403, "\(bad)")
                #expect(response.json?["code"] == 501)
            }
            // An unsigned request learns nothing of whether a file exists.
            let unknown = "/2026/01/01/" + String(repeating: "cd", count: 16) + ".png"
            #expect(try await server.request("GET", unknown).status == 403)
            #expect(try await server.request("GET", try target(signed)).status == 200)

            // Bounds of the sign request.
            let many = Array(repeating: first, count: 101)
            #expect(try await sign(server, many, session: owner).json?["code"] == 107)
            #expect(try await sign(server, [], session: owner).json?["code"] == 107)
            #expect(try await sign(server, [first], expiresIn: 0, session: owner).json?["code"] == 107)
            #expect(try await sign(server, [first], expiresIn: 7 * 86_400 + 1, session: owner).json?["code"] == 107)
            let malformed = try await server.call(
                "POST", "/2/signedFileURLs", json: ["urls": "not a list"], headers: [("X-Bmob-Session-Token", owner)])
            #expect(malformed.json?["code"] == 107)
            let mixed = try await server.call(
                "POST", "/2/signedFileURLs", json: ["urls": [.string(first), 5]], headers: [("X-Bmob-Session-Token", owner)])
            #expect(mixed.json?["code"] == 107)
            #expect(try await sign(server, ["../../etc/passwd"], session: owner).json?["code"] == 101)
        }
    }

    @Test("with public downloads (the default) a file's URL serves it, and a signed one too")
    func publicByDefault() async throws {
        try await withTestServer { server in
            let (_, owner) = try await server.signUpUser("owner", password: "secret123")
            let url = try await upload(server, "open.png", [9, 9], session: owner)
            #expect(try await server.request("GET", try target(url)).status == 200)
            let signed = try #require(try await sign(server, [url], session: owner).json?["urls"]?.arrayValue?.first?.stringValue)
            #expect(try await server.request("GET", try target(signed)).status == 200)
        }
    }
}
