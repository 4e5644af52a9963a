import BmobCrypto
import BmobServer
import BmobTesting
import BmobWire
import Foundation
import Testing

/// Large files: `/8/cdn`'s plan with short-lived credentials, the local S3 endpoint's multipart operations
/// signed with them, `/8/savecdnupload`, resuming, a restart in the middle, and what hostile requests get.
@Suite struct MultipartUploadTests {
    /// Small thresholds and parts, so that "large" files stay small in tests.
    static func configure(_ configuration: inout ServerConfiguration) {
        configuration.files.uploadThreshold = 64 * 1024
        configuration.files.partBytes = 64 * 1024
    }

    /// A plan from `/8/cdn`, and requests signed with its credentials.
    struct Plan {
        let server: TestServer
        let json: JSONValue

        var key: String { json["upload"]?["key"]?.stringValue ?? "" }
        var sessionToken: String { json["upload"]?["credentials"]?["sessionToken"]?.stringValue ?? "" }
        var credentials: SigV4Credentials {
            let block = json["upload"]?["credentials"]
            return SigV4Credentials(
                accessKeyId: block?["accessKeyId"]?.stringValue ?? "", secretAccessKey: block?["secretAccessKey"]?.stringValue ?? "",
                sessionToken: block?["sessionToken"]?.stringValue)
        }

        /// Sends `method` to the endpoint for `key` (this plan's by default), signed (or with `tamper` applied
        /// to the signed headers).
        func send(
            _ method: String, key: String? = nil, query: [(String, String)] = [], body: [UInt8] = [],
            payloadHash: String? = nil, credentials: SigV4Credentials? = nil, time: Date = Date(),
            tamper: ([(name: String, value: String)]) -> [(name: String, value: String)] = { $0 }
        ) async throws -> RawHTTPResponse {
            let path = "/s3/files/" + (key ?? self.key)
            let request = SigV4Request(
                method: method, unencodedPath: path, query: query.map { (name: $0.0, value: $0.1) },
                headers: [(name: "host", value: "localhost")], payloadHash: payloadHash ?? SHA256.hex(body))
            let signer = SigV4Signer(credentials: credentials ?? self.credentials, region: "bmob")
            let signed = tamper(signer.sign(request, secondsSince1970: Int64(time.timeIntervalSince1970)))
            let target = path + (query.isEmpty ? "" : "?" + request.queryString)
            return try await server.request(method, target, headers: signed.map { ($0.name, $0.value) }, body: body)
        }

        func initiate() async throws -> String {
            let response = try await send("POST", query: [("uploads", "")])
            guard response.status == 200 else { throw TestFailure("initiate: \(response.status) \(response.text)") }
            return try S3InitiateMultipartUploadResult(xml: response.body).uploadId
        }

        func part(_ uploadId: String, _ number: Int, _ bytes: [UInt8]) async throws -> String {
            let response = try await send("PUT", query: [("partNumber", "\(number)"), ("uploadId", uploadId)], body: bytes)
            guard response.status == 200, let etag = response.headers["ETag"] else {
                throw TestFailure("part \(number): \(response.status) \(response.text)")
            }
            return etag
        }

        func complete(_ uploadId: String, _ parts: [(Int, String)]) async throws -> RawHTTPResponse {
            let body = S3CompleteMultipartUpload(parts: parts.map { .init(partNumber: $0.0, etag: $0.1) }).xml
            return try await send("POST", query: [("uploadId", uploadId)], body: Array(body.utf8))
        }

        func parts(_ uploadId: String) async throws -> [S3ListPartsResult.Part] {
            let response = try await send("GET", query: [("uploadId", uploadId)])
            guard response.status == 200 else { throw TestFailure("list: \(response.status) \(response.text)") }
            return try S3ListPartsResult(xml: response.body).parts
        }
    }

    private func makePlan(_ client: NativeTestClient, _ server: TestServer, name: String = "movie.mp4", size: Int, resume: String? = nil)
        async throws -> Plan
    {
        var data: [String: JSONValue] = ["filename": .string(name), "size": .int(Int64(size))]
        if let resume { data["resume"] = .string(resume) }
        return Plan(server: server, json: try await client.data("cdn", ["data": .object(data)]))
    }

    private func bytes(_ count: Int, seed: UInt8 = 1) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) }
    }

    @Test("a large file: plan, initiate, parts, list, complete, register; the URL serves it and _File records it")
    func fullUpload() async throws {
        try await withTestServer(configure: Self.configure) { server in
            let client = NativeTestClient(server)
            let file = bytes(64 * 1024 * 2 + 10_000)
            let plan = try await makePlan(client, server, size: file.count)
            #expect(plan.json["uploadThreshold"] == 65536)
            #expect(plan.json["upload"]?["bucket"] == "files")
            #expect(plan.json["upload"]?["region"] == "bmob")
            #expect(plan.json["upload"]?["endpoint"]?.stringValue == server.baseURL + "/s3")
            #expect(plan.json["upload"]?["partSize"] == 65536)
            #expect(plan.json["upload"]?["uploadToken"]?.stringValue == plan.sessionToken, "locally the session token is the upload token")
            #expect(FileKey(plan.key)?.fileExtension == "mp4")

            let before = server.server.fileUploads.partsReceived
            let uploadId = try await plan.initiate()
            var etags: [(Int, String)] = []
            for (index, start) in stride(from: 0, to: file.count, by: 65536).enumerated() {
                etags.append((index + 1, try await plan.part(uploadId, index + 1, Array(file[start..<min(start + 65536, file.count)]))))
            }
            #expect(server.server.fileUploads.partsReceived - before == 3)
            #expect(try await plan.parts(uploadId).map { $0.size } == [65536, 65536, 10000])
            // Nothing is visible under the key before the upload completes.
            #expect(try await server.request("GET", "/" + plan.key).status == 404)
            let early = try await client.call(
                "savecdnupload", ["data": ["filename": "movie.mp4", "filesize": .int(Int64(file.count)), "sessionToken": .string(plan.sessionToken)]])
            #expect(early.code == 150)

            let completed = try await plan.complete(uploadId, etags)
            #expect(completed.status == 200)
            #expect(try S3CompleteMultipartUploadResult(xml: completed.body).key == plan.key)
            let registered = try await client.data(
                "savecdnupload",
                ["data": ["filename": "movie.mp4", "filesize": .int(Int64(file.count)), "cdn": "local", "sessionToken": .string(plan.sessionToken)]])
            #expect(registered["url"]?.stringValue == server.baseURL + "/" + plan.key)
            #expect(registered["filename"] == "movie.mp4")
            #expect(try await server.request("GET", "/" + plan.key).body == file)
            let again = try await client.data(
                "savecdnupload",
                ["data": ["filename": "movie.mp4", "filesize": .int(Int64(file.count)), "sessionToken": .string(plan.sessionToken)]])
            #expect(again == registered, "registering twice answers the same file")
            let records = try await server.call("GET", "/1/classes/_File", master: true)
            #expect(records.json?["results"]?.arrayValue?.map { $0["size"] } == [.int(Int64(file.count))])
            // The upload is gone once completed.
            let listed = try await plan.send("GET", query: [("uploadId", uploadId)])
            #expect(listed.status == 404)
            #expect(try S3ErrorResponse(xml: listed.body).code == "NoSuchUpload")
        }
    }

    @Test("a resumed upload keeps its key, sees the parts already stored, and survives a server restart")
    func resumeAcrossRestart() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bmob-resume-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = bytes(65536 * 2 + 5, seed: 7)
        var first = try await TestServer.start(dataDirectory: folder, configure: Self.configure)
        let plan = try await makePlan(NativeTestClient(first), first, size: file.count)
        let uploadId = try await plan.initiate()
        let etag1 = try await plan.part(uploadId, 1, Array(file[0..<65536]))
        await first.stop()

        first = try await TestServer.start(dataDirectory: folder, configure: Self.configure)
        let server = first
        let client = NativeTestClient(server)
        let resumed = try await makePlan(client, server, size: file.count, resume: plan.sessionToken)
        #expect(resumed.key == plan.key)
        #expect(resumed.credentials.accessKeyId != plan.credentials.accessKeyId, "new credentials")
        let stored = try await resumed.parts(uploadId)
        #expect(stored.map { $0.partNumber } == [1])
        #expect(stored.first?.etag == etag1)
        let etag2 = try await resumed.part(uploadId, 2, Array(file[65536..<131072]))
        let etag3 = try await resumed.part(uploadId, 3, Array(file[131072...]))
        #expect(server.server.fileUploads.partsReceived == 2, "only the missing parts were sent after the restart")
        #expect(try await resumed.complete(uploadId, [(1, etag1), (2, etag2), (3, etag3)]).status == 200)
        let registered = try await client.data(
            "savecdnupload", ["data": ["filename": "movie.mp4", "filesize": .int(Int64(file.count)), "sessionToken": .string(resumed.sessionToken)]])
        let url = try #require(registered["url"]?.stringValue)
        let path = try #require(URL(string: url)).path
        #expect(try await server.request("GET", path).body == file)
        await server.stop()
    }

    @Test("hostile requests: bad signatures, foreign keys and tokens, expired credentials, wrong hashes, bad parts")
    func hostile() async throws {
        try await withTestServer(configure: Self.configure) { server in
            let client = NativeTestClient(server)
            let plan = try await makePlan(client, server, size: 200_000)
            let other = try await makePlan(client, server, name: "other.mp4", size: 200_000)
            let uploadId = try await plan.initiate()
            let part = bytes(65536)

            func code(_ response: RawHTTPResponse) -> String? { try? S3ErrorResponse(xml: response.body).code }

            let unsigned = try await server.request("PUT", "/s3/files/\(plan.key)?partNumber=1&uploadId=\(uploadId)", body: part)
            #expect(unsigned.status == 403)
            #expect(code(unsigned) == "AccessDenied")
            let badSignature = try await plan.send("PUT", query: [("partNumber", "1"), ("uploadId", uploadId)], body: part) { headers in
                headers.map { $0.name == "Authorization" ? ($0.name, String($0.value.dropLast(4)) + "0000") : $0 }
            }
            #expect(code(badSignature) == "SignatureDoesNotMatch")
            let forgedToken = try await plan.send("POST", query: [("uploads", "")]) { headers in
                headers.map { $0.name == "x-amz-security-token" ? ($0.name, $0.value + "0") : $0 }
            }
            #expect(code(forgedToken) == "InvalidToken")
            let foreignKey = try await plan.send("POST", key: other.key, query: [("uploads", "")])
            #expect(code(foreignKey) == "AccessDenied")
            let mixed = try await plan.send("POST", query: [("uploads", "")], credentials: other.credentials)
            #expect(code(mixed) == "AccessDenied", "another key's credentials do not open this one")
            let skewed = try await plan.send("POST", query: [("uploads", "")], time: Date().addingTimeInterval(-3600))
            #expect(code(skewed) == "RequestTimeTooSkewed")
            let wrongHash = try await plan.send(
                "PUT", query: [("partNumber", "1"), ("uploadId", uploadId)], body: part, payloadHash: SHA256.hex([1]))
            #expect(code(wrongHash) == "XAmzContentSHA256Mismatch")
            let unsignedPayload = try await plan.send(
                "PUT", query: [("partNumber", "1"), ("uploadId", uploadId)], body: part, payloadHash: "UNSIGNED-PAYLOAD")
            #expect(code(unsignedPayload) == "InvalidRequest")
            for number in ["0", "10001", "x", "-1"] {
                let bad = try await plan.send("PUT", query: [("partNumber", number), ("uploadId", uploadId)], body: part)
                #expect(code(bad) == "InvalidArgument", "partNumber \(number)")
            }
            for id in ["../../apps", "00000000000000000000000000000000", String(repeating: "a", count: 31)] {
                let bad = try await plan.send("PUT", query: [("partNumber", "1"), ("uploadId", id)], body: part)
                #expect(code(bad) == "NoSuchUpload", "uploadId \(id)")
            }
            let otherUpload = try await other.initiate()
            let crossed = try await plan.send("GET", query: [("uploadId", otherUpload)])
            #expect(code(crossed) == "NoSuchUpload", "an upload of another key is not this key's")
            #expect(try await plan.parts(uploadId).isEmpty, "no refused part was stored")

            let etag = try await plan.part(uploadId, 1, part)
            let wrongETag = try await plan.complete(uploadId, [(1, "\"00000000000000000000000000000000\"")])
            #expect(code(wrongETag) == "InvalidPart")
            let small = try await plan.part(uploadId, 2, [1, 2, 3])
            let outOfOrder = try await plan.complete(uploadId, [(2, small), (1, etag)])
            #expect(code(outOfOrder) == "MalformedXML", "the XML codec refuses parts out of order")
            let third = try await plan.part(uploadId, 3, part)
            let tooSmall = try await plan.complete(uploadId, [(1, etag), (2, small), (3, third)])
            #expect(code(tooSmall) == "EntityTooSmall", "only the last part may be smaller than the part size")
            let malformed = try await plan.send("POST", query: [("uploadId", uploadId)], body: Array("<x>".utf8))
            #expect(code(malformed) == "MalformedXML")
            let doctype = try await plan.send(
                "POST", query: [("uploadId", uploadId)], body: Array("<!DOCTYPE x [<!ENTITY a \"b\">]><CompleteMultipartUpload/>".utf8))
            #expect(code(doctype) == "MalformedXML")
            #expect(try await server.request("GET", "/" + plan.key).status == 404)

            // Tokens: another app's or a forged one does not register; an expired one does not either.
            var forged = plan.sessionToken
            forged.removeLast()
            let notIssued = try await client.call(
                "savecdnupload", ["data": ["filename": "movie.mp4", "filesize": 1, "sessionToken": .string(forged + "0")]])
            #expect(notIssued.code == 150)
            let resumeForged = try await client.call("cdn", ["data": ["filename": "a.mp4", "size": 200_000, "resume": "abc.def"]])
            #expect(resumeForged.code == 150)
            let resumeOtherType = try await client.call(
                "cdn", ["data": ["filename": "a.png", "size": 200_000, "resume": .string(plan.sessionToken)]])
            #expect(resumeOtherType.code == 150, "a resumed upload keeps its extension")
            let tooLarge = try await client.call("cdn", ["data": ["filename": "a.mp4", "size": .int(Int64(6) << 30)]])
            #expect(tooLarge.code == 145)

            let aborted = try await plan.send("DELETE", query: [("uploadId", uploadId)])
            #expect(aborted.status == 204)
            #expect(code(try await plan.send("GET", query: [("uploadId", uploadId)])) == "NoSuchUpload")
            #expect(code(try await plan.send("POST", key: plan.key, query: [("uploads", "")]) { $0.filter { $0.name != "x-amz-security-token" } }) == "InvalidToken")
        }
    }

    @Test("expired credentials are refused by the endpoint and by registration")
    func expiredCredentials() async throws {
        let start = Int64(Date().timeIntervalSince1970) * 1000
        let clock = TestClock(start: start)
        try await withTestServer(clock: clock.serverClock, configure: Self.configure) { server in
            let client = NativeTestClient(server)
            let plan = try await makePlan(client, server, size: 100_000)
            clock.advance(milliseconds: 901_000)
            let late = try await plan.send("POST", query: [("uploads", "")], time: Date(timeIntervalSince1970: TimeInterval(start / 1000 + 901)))
            #expect(try S3ErrorResponse(xml: late.body).code == "ExpiredToken")
            let register = try await client.call(
                "savecdnupload", ["data": ["filename": "movie.mp4", "filesize": 100_000, "sessionToken": .string(plan.sessionToken)]])
            #expect(register.code == 150)
            let fresh = try await makePlan(client, server, size: 100_000, resume: plan.sessionToken)
            #expect(fresh.key == plan.key, "an expired token still resumes its upload")
        }
    }

    @Test("an upload left unfinished past uploadExpirySeconds is removed when a later one starts")
    func unfinishedUploadsExpire() async throws {
        let start = Int64(Date().timeIntervalSince1970) * 1000
        let clock = TestClock(start: start)
        try await withTestServer(clock: clock.serverClock, configure: {
            Self.configure(&$0)
            $0.files.uploadExpirySeconds = 60
        }) { server in
            let client = NativeTestClient(server)
            let plan = try await makePlan(client, server, size: 100_000)
            let stale = try await plan.initiate()
            _ = try await plan.part(stale, 1, bytes(65536))
            // Sweeps run at most every ten minutes, when an upload starts.
            clock.advance(milliseconds: 700_000)
            let fresh = try await plan.initiate()
            let gone = try await plan.send("GET", query: [("uploadId", stale)])
            #expect(try S3ErrorResponse(xml: gone.body).code == "NoSuchUpload")
            #expect(try await plan.parts(fresh).isEmpty, "the upload that started the sweep is kept")
            let uploads = server.dataDirectory.appendingPathComponent("files/.uploads").path
            #expect(try FileManager.default.contentsOfDirectory(atPath: uploads) == [fresh])
        }
    }
}
