import BmobServer
import BmobTesting
import BmobWire
import Foundation
import Testing

/// Files through REST and the native door, on loopback: uploads, downloads with ranges and validators, the
/// `_File` records, deletes and who may make them, and bad input.
@Suite struct FileRoutesTests {
    /// Uploads `bytes` as `name` through `POST /2/files/<name>` with the REST key (and `session`).
    private func upload(
        _ server: TestServer, _ name: String, _ bytes: [UInt8], contentType: String = "image/jpeg",
        session: String? = nil
    ) async throws -> RawHTTPResponse {
        var headers = server.appHeaders + [("Content-Type", contentType)]
        if let session { headers.append(("X-Bmob-Session-Token", session)) }
        return try await server.request("POST", "/2/files/\(name)", headers: headers, body: bytes)
    }

    /// The path of a file URL (its key with a leading `/`).
    private func path(_ url: String) throws -> String {
        try #require(URL(string: url)?.path)
    }

    @Test("a REST upload answers filename, url and cdn; the URL serves the bytes with their type and validators")
    func uploadAndDownload() async throws {
        try await withTestServer { server in
            let bytes = (0..<5000).map { UInt8($0 % 251) }
            let response = try await upload(server, "photo.JPG", bytes)
            #expect(response.status == 200)
            let json = try #require(response.json)
            #expect(json["filename"] == "photo.JPG")
            #expect(json["cdn"] == "local")
            let url = try #require(json["url"]?.stringValue)
            #expect(url.hasPrefix(server.baseURL + "/"))
            let key = try #require(FileKey(urlOrPath: url))
            #expect(key.fileExtension == "jpg")
            let today = BmobDateFormat.civilDate(millisecondsSince1970: Int64(Date().timeIntervalSince1970 * 1000))
            #expect(key.rawValue.hasPrefix(String(format: "%04d/%02d/%02d/", today.year, today.month, today.day)))

            let download = try await server.request("GET", try path(url))
            #expect(download.status == 200)
            #expect(download.body == bytes)
            #expect(download.headers["Content-Type"] == "image/jpeg")
            #expect(download.headers["Cache-Control"]?.contains("immutable") == true)
            let etag = try #require(download.headers["ETag"])

            let range = try await server.request("GET", try path(url), headers: [("Range", "bytes=10-19")])
            #expect(range.status == 206)
            #expect(range.body == Array(bytes[10...19]))
            #expect(range.headers["Content-Range"] == "bytes 10-19/5000")

            let cached = try await server.request("GET", try path(url), headers: [("If-None-Match", etag)])
            #expect(cached.status == 304)
            #expect(cached.body.isEmpty)

            let head = try await server.request("HEAD", try path(url))
            #expect(head.status == 200)
            #expect(head.headers["Content-Length"] == "5000")
        }
    }

    @Test("each upload gets a record in _File, journaled, which clients cannot write and only its owner reads")
    func records() async throws {
        try await withTestServer { server in
            let (userId, token) = try await server.signUpUser("uploader", password: "secret123")
            let owned = try await upload(server, "mine.txt", Array("hello".utf8), contentType: "text/plain", session: token)
            let anonymous = try await upload(server, "theirs.txt", Array("world".utf8), contentType: "text/plain")
            #expect(owned.status == 200 && anonymous.status == 200)

            let all = try await server.call("GET", "/1/classes/_File", master: true)
            let results = try #require(all.json?["results"]?.arrayValue)
            #expect(results.count == 2)
            let mine = try #require(results.first { $0["filename"] == "mine.txt" })
            #expect(mine["size"] == 5)
            #expect(mine["mimeType"] == "text/plain")
            #expect(mine["url"] == owned.json?["url"])
            #expect(mine["owner"]?["objectId"] == .string(userId))

            let asOwner = try await server.call(
                "GET", "/1/classes/_File", headers: [("X-Bmob-Session-Token", token)])
            #expect(asOwner.json?["results"]?.arrayValue?.map { $0["filename"] } == ["mine.txt"])
            let asAnyone = try await server.call("GET", "/1/classes/_File")
            #expect(asAnyone.json?["results"]?.arrayValue?.isEmpty == true)

            let forged = try await server.call("POST", "/1/classes/_File", json: ["key": "2020/01/01/x.jpg"])
            #expect(forged.status == 400)
            #expect(forged.json?["code"] == 103)
        }
    }

    @Test("a file with an owner is deleted only by that owner or the master key; without one, by any client")
    func deleteRules() async throws {
        try await withTestServer { server in
            let (_, owner) = try await server.signUpUser("owner", password: "secret123")
            let (_, other) = try await server.signUpUser("other", password: "secret123")
            let owned = try #require(try await upload(server, "a.png", [1, 2, 3], session: owner).json?["url"]?.stringValue)

            let byOther = try await server.call(
                "DELETE", "/2/files/upyun\(try path(owned))", headers: [("X-Bmob-Session-Token", other)])
            #expect(byOther.json?["code"] == 153)
            let byAnonymous = try await server.call("DELETE", "/2/files/upyun\(try path(owned))")
            #expect(byAnonymous.json?["code"] == 153)
            #expect(try await server.request("GET", try path(owned)).status == 200)

            let byOwner = try await server.call(
                "DELETE", "/2/files/upyun\(try path(owned))", headers: [("X-Bmob-Session-Token", owner)])
            #expect(byOwner.status == 200)
            #expect(byOwner.json == ["msg": "ok"])
            #expect(try await server.request("GET", try path(owned)).status == 404)
            let again = try await server.call("DELETE", "/2/files/upyun\(try path(owned))", master: true)
            #expect(again.json?["code"] == 151)

            let free = try #require(try await upload(server, "b.png", [4, 5]).json?["url"]?.stringValue)
            #expect(try await server.call("DELETE", "/2/files/local\(try path(free))").status == 200)

            let masters = try #require(try await upload(server, "c.png", [6], session: owner).json?["url"]?.stringValue)
            #expect(try await server.call("DELETE", "/2/files/upyun\(try path(masters))", master: true).status == 200)
            let records = try await server.call("GET", "/1/classes/_File", master: true)
            #expect(records.json?["results"]?.arrayValue?.isEmpty == true)
        }
    }

    @Test("a batch delete takes keys and URLs under any cdn name, and names the ones it could not delete")
    func batchDelete() async throws {
        try await withTestServer { server in
            var urls: [String] = []
            for index in 0..<3 {
                urls.append(try #require(try await upload(server, "f\(index).txt", [UInt8(index) + 1]).json?["url"]?.stringValue))
            }
            let done = try await server.call(
                "POST", "/2/cdnBatchDelete", json: ["upyun": [.string(urls[0]), .string(String(try path(urls[1]).dropFirst()))]])
            #expect(done.json == ["msg": "ok"])
            let partly = try await server.call(
                "POST", "/2/cdnBatchDelete", json: ["upyun": [.string(urls[2]), "2020/01/01/00000000000000000000000000000000.txt"]])
            #expect(partly.json?["code"] == 154)
            #expect(partly.json?["error"]?.stringValue?.contains("2020/01/01") == true)
            for url in urls { #expect(try await server.request("GET", try path(url)).status == 404) }
            let malformed = try await server.call("POST", "/2/cdnBatchDelete", json: ["upyun": "not a list"])
            #expect(malformed.json?["code"] == 107)
            // Naming no file is a mistake, not a delete of nothing (schemathesis sent a bare POST; it got "ok").
            for empty in [[:], ["upyun": []]] as [JSONValue] {
                let refused = try await server.call("POST", "/2/cdnBatchDelete", json: empty)
                #expect(refused.status == 400)
                #expect(refused.json?["code"] == 107)
            }
            let bare = try await server.request("POST", "/2/cdnBatchDelete", headers: server.appHeaders, body: [])
            #expect(bare.json?["code"] == 107)
        }
    }

    @Test("bad names, empty and oversize bodies get Bmob's codes and store nothing")
    func badUploads() async throws {
        try await withTestServer(configure: { $0.files.maximumSmallFileBytes = 1000 }) { server in
            #expect(try await upload(server, "noSuffix", [1]).json?["code"] == 146)
            #expect(try await upload(server, "bad.", [1]).json?["code"] == 146)
            #expect(try await upload(server, "a.toolongextension1", [1]).json?["code"] == 146)
            #expect(try await upload(server, "%E5%9B%BE.png", [1]).json?["code"] == 146, "a name that is not ASCII must be base64")
            #expect(try await upload(server, "..%2F..%2Fetc%2Fpasswd.txt", [1]).json?["code"] == 146)
            #expect(try await upload(server, "a%00b.txt", [1]).json?["code"] == 146)
            #expect(try await upload(server, "empty.txt", []).json?["code"] == 149)
            let large = try await upload(server, "large.bin", [UInt8](repeating: 7, count: 1001))
            #expect(large.json?["code"] == 145)
            #expect(large.status == 413)
            let base64Name = Data("图片.png".utf8).base64EncodedString()
            let decoded = try await upload(server, base64Name.replacingOccurrences(of: "/", with: "%2F"), [1])
            #expect(decoded.json?["filename"] == "图片.png")
            let records = try await server.call("GET", "/1/classes/_File", master: true)
            #expect(records.json?["results"]?.arrayValue?.count == 1)
            let files = server.dataDirectory.appendingPathComponent("files")
            let stored = FileManager.default.enumerator(atPath: files.path)?.compactMap { $0 as? String }
                .filter { !$0.hasPrefix(".tmp") && $0.contains(".") } ?? []
            #expect(stored.count == 1, "only the one good upload is on disk: \(stored)")

            #expect(try await server.request("GET", "/2020/01/01/zzzz.txt").status == 404)
            #expect(try await server.request("GET", "/2020/13/01/00000000000000000000000000000000.txt").status == 404)
            let sentinel = server.dataDirectory.appendingPathComponent("sentinel.txt")
            try Data("keep".utf8).write(to: sentinel)
            for target in ["/2/files/upyun/../sentinel.txt", "/2/files/upyun/..%2Fsentinel.txt", "/2/files/upyun/%2E%2E/sentinel.txt"] {
                let unknownDelete = try await server.call("DELETE", target)
                #expect(unknownDelete.json?["code"] == 151, "\(target)")
            }
            #expect(FileManager.default.fileExists(atPath: sentinel.path))
        }
    }

    @Test("the native door: /8/cdn answers the threshold, /8/files stores, /8/delcdnupload and /8/delcdnbatch delete")
    func nativeSmallFiles() async throws {
        try await withTestServer(configure: { $0.files.uploadThreshold = 4096 }) { server in
            let client = NativeTestClient(server)
            let plan = try await client.data("cdn", ["data": ["filename": "a.jpg", "size": 100]])
            #expect(plan == ["uploadThreshold": 4096, "cdn": "local"])
            let bytes = (0..<300).map { UInt8($0 % 256) }
            let stored = try await client.data(
                "files", ["data": ["filename": "a.jpg", "mimeType": "image/jpeg", "content": .string(Data(bytes).base64EncodedString())]])
            #expect(stored["filename"] == "a.jpg")
            #expect(stored["cdn"] == "local")
            let url = try #require(stored["url"]?.stringValue)
            #expect(try await server.request("GET", try path(url)).body == bytes)
            #expect(try await client.data("delcdnupload", ["data": ["filename": .string(String(try path(url).dropFirst())), "cdn": "upyun"]]) == ["msg": "ok"])
            #expect(try await server.request("GET", try path(url)).status == 404)

            let second = try #require(try await client.data(
                "files", ["data": ["filename": "b.txt", "content": .string(Data([1]).base64EncodedString())]])["url"]?.stringValue)
            #expect(try await client.data("delcdnbatch", ["data": ["local": [.string(second)]]]) == ["msg": "ok"])

            #expect(try await client.call("files", ["data": ["filename": "c.txt", "content": "***"]]).code == 107)
            #expect(try await client.call("files", ["data": ["filename": "c", "content": "AA=="]]).code == 146)
            #expect(try await client.call("files", ["data": ["content": "AA=="]]).code == 118)
            #expect(try await client.call("cdn", ["data": ["filename": "a.jpg", "size": -1]]).code == 107)
            #expect(try await client.call("delcdnbatch", ["data": ["local": "x"]]).code == 107)
            let missing = try await client.call("delcdnupload", ["data": ["filename": "2020/01/01/00000000000000000000000000000000.txt"]])
            #expect(missing.code == 151)
        }
    }

    @Test("bmobpy, Bmob's Python SDK from PyPI, uploads, downloads and deletes a file through the REST routes")
    func bmobpyPeer() async throws {
        try await withTestServer { server in
            let output = try await PythonPeer.run(
                "bmobpy_files_peer.py", [server.baseURL, TestServer.applicationId, TestServer.restKey])
            // bmobpy prints its own messages; the report is the last line.
            let report = try JSONParser.parse(Array((output.split(separator: "\n").last ?? "").utf8))
            #expect(report["uploaded"] == true, "\(output)")
            #expect(report["filename"] == "report.pdf")
            #expect(report["url"]?.stringValue?.hasPrefix(server.baseURL + "/") == true)
            #expect(report["downloadedMatches"] == true)
            #expect(report["contentType"] == "application/pdf")
            #expect(report["deleted"] == true)
            #expect(report["afterDelete"] == 404)
            #expect(report["deletedAgain"] == false)
        }
    }
}
