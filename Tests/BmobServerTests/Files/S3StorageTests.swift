import BmobCrypto
import BmobIO
import BmobServer
import BmobTesting
import BmobWire
import Foundation
import Testing

/// The S3 provider against an independent S3 and STS implementation: `moto`'s server from PyPI, started by each
/// test (installed by `scripts/bootstrap.sh test`). Small uploads land in the bucket and download through the
/// server with ranges; deletes remove the object; `/8/cdn` hands out the bucket and STS credentials, with which
/// a multipart upload goes straight to moto and is then registered; a stopped S3 answers 503/150.
@Suite struct S3StorageTests {
    /// The server's long-lived key (moto accepts any).
    static let accessKeyId = "AKIAIOSFODNN7EXAMPLE"
    static let secretAccessKey = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYS3SECRET"
    static let region = "us-east-1"

    /// A moto server on a free loopback port, its standard error drained by a thread of its own.
    final class Moto: Sendable {
        let process: ChildProcess
        let port: Int

        private init(process: ChildProcess, port: Int) {
            self.process = process
            self.port = port
        }

        /// `http://127.0.0.1:<port>`.
        var url: String { "http://127.0.0.1:\(port)" }

        /// Starts `python -m moto.server` on port 0 and reads the port it announces.
        ///
        /// - Throws: ``TestFailure`` telling to run `scripts/bootstrap.sh test` when moto is missing or does not
        ///   start.
        static func start() async throws -> Moto {
            let hint = "run scripts/bootstrap.sh test to install moto into the Python peer environment"
            guard PythonPeers.isInstalled else {
                throw TestFailure("no Python peer environment at \(PythonPeers.interpreter.path); \(hint)")
            }
            var environment = ProcessInfo.processInfo.environment
            environment["PYTHONUNBUFFERED"] = "1"
            let process = try ChildProcess(
                PythonPeers.interpreter.path, ["-m", "moto.server", "-H", "127.0.0.1", "-p", "0"],
                environment: environment, error: .pipe)
            let watchdog = Task {
                try await Task.sleep(for: .seconds(90))
                process.send(SIGKILL)
            }
            defer { watchdog.cancel() }
            let (port, text) = await announcedPort(process.error!)
            guard let port else {
                process.send(SIGKILL)
                _ = await process.waitForExit()
                throw TestFailure("moto did not start (\(hint)): \(String(decoding: text.suffix(2000), as: UTF8.self))")
            }
            return Moto(process: process, port: port)
        }

        /// Stops the server and waits for it. SIGKILL, because a child spawned from a thread that blocks
        /// SIGTERM inherits the blocked mask, and moto keeps nothing that needs a clean exit.
        func stop() async {
            process.send(SIGKILL)
            _ = await process.waitForExit()
        }

        /// Reads `fd` on a thread of its own until werkzeug announces `Running on http://127.0.0.1:<port>`, then
        /// keeps reading (its request log) until the end, so that a full pipe never blocks moto.
        private static func announcedPort(_ fd: Int32) async -> (Int?, [UInt8]) {
            await withCheckedContinuation { continuation in
                Foundation.Thread.detachNewThread {
                    var seen: [UInt8] = []
                    var answered = false
                    while true {
                        let chunk = ChildProcess.read(fd)
                        if chunk.isEmpty { break }
                        guard !answered else { continue }
                        seen += chunk
                        let text = String(decoding: seen, as: UTF8.self)
                        if let range = text.range(of: "Running on http://127.0.0.1:") {
                            let digits = text[range.upperBound...].prefix { $0.isNumber }
                            if let port = Int(digits),
                                text[range.upperBound...].dropFirst(digits.count).first?.isNumber == false
                            {
                                answered = true
                                continuation.resume(returning: (port, seen))
                            }
                        }
                    }
                    if !answered { continuation.resume(returning: (nil, seen)) }
                }
            }
        }

        /// Sends a request to moto signed with `credentials` (the server's key by default); `path` is unencoded.
        func send(
            _ method: String, _ path: String, query: [(String, String)] = [], headers: [(String, String)] = [],
            body: [UInt8] = [], credentials: SigV4Credentials? = nil
        ) async throws -> RawHTTPResponse {
            let request = SigV4Request(
                method: method, unencodedPath: path, query: query.map { (name: $0.0, value: $0.1) },
                headers: [(name: "host", value: "localhost")] + headers.map { (name: $0.0, value: $0.1) },
                payloadHash: SHA256.hex(body))
            let signer = SigV4Signer(
                credentials: credentials
                    ?? SigV4Credentials(
                        accessKeyId: S3StorageTests.accessKeyId, secretAccessKey: S3StorageTests.secretAccessKey),
                region: S3StorageTests.region)
            let signed = signer.sign(request, secondsSince1970: Int64(Date().timeIntervalSince1970))
            let target = request.path + (query.isEmpty ? "" : "?" + request.queryString)
            let connection = try RawHTTPConnection(port: port)
            try await connection.send(
                HTTPRequestText.make(
                    method, target, headers: headers + signed.map { ($0.name, $0.value) },
                    body: body.isEmpty && method != "PUT" && method != "POST" ? nil : body))
            return try await connection.readResponse(toHead: method == "HEAD")
        }

        /// Creates the bucket `name` (a signed `PUT /<name>`).
        func createBucket(_ name: String) async throws {
            let created = try await send("PUT", "/" + name)
            guard created.status == 200 else { throw TestFailure("create bucket: \(created.status) \(created.text)") }
        }
    }

    /// Starts moto with a fresh bucket and a test server keeping its files there, runs `body`, and stops both.
    private func withS3(
        chunkBytes: Int = 1 << 20, logger: Logger = TestServer.faultLogger,
        configure: (inout ServerConfiguration) -> Void = { _ in },
        _ body: (TestServer, Moto, String) async throws -> Void
    ) async throws {
        let moto = try await Moto.start()
        let bucket = "bmob-test-" + SecureRandom.hex(byteCount: 6)
        do {
            try await moto.createBucket(bucket)
            let server = try await TestServer.start(logger: logger) { configuration in
                var s3 = S3StorageConfiguration(
                    endpoint: moto.url, region: Self.region, bucket: bucket, accessKeyId: Self.accessKeyId,
                    secretAccessKey: Self.secretAccessKey, pathStyle: true)
                s3.downloadChunkBytes = chunkBytes
                s3.requestTimeoutSeconds = 10
                configuration.files.s3 = s3
                configure(&configuration)
            }
            do {
                try await body(server, moto, bucket)
            } catch {
                await server.stop()
                throw error
            }
            await server.stop()
        } catch {
            await moto.stop()
            throw error
        }
        await moto.stop()
    }

    /// Uploads `bytes` as `name` through `POST /2/files/<name>`.
    private func upload(_ server: TestServer, _ name: String, _ bytes: [UInt8]) async throws -> RawHTTPResponse {
        try await server.request(
            "POST", "/2/files/\(name)", headers: server.appHeaders + [("Content-Type", "application/octet-stream")],
            body: bytes)
    }

    private func bytes(_ count: Int, seed: UInt8 = 1) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed) &+ $0 >> 8) }
    }

    @Test("a REST upload is a PutObject into the bucket; its URL streams it back through the server, with ranges")
    func smallUploadAndDownload() async throws {
        try await withS3(chunkBytes: 1000) { server, moto, bucket in
            let file = bytes(5500)
            let response = try await upload(server, "photo.jpg", file)
            #expect(response.status == 200, "\(response.text)")
            #expect(response.json?["cdn"] == "s3")
            let url = try #require(response.json?["url"]?.stringValue)
            #expect(url.hasPrefix(server.baseURL + "/"), "file URLs stay the server's")
            let key = try #require(FileKey(urlOrPath: url))

            let direct = try await moto.send("GET", "/\(bucket)/\(key.rawValue)")
            #expect(direct.status == 200)
            #expect(direct.body == file, "the object is in the bucket under the file's key")
            #expect(direct.headers["Content-Type"] == "image/jpeg")

            let path = "/" + key.rawValue
            let whole = try await server.request("GET", path)
            #expect(whole.status == 200)
            #expect(whole.body == file, "six ranged reads of 1000 bytes make the whole file")
            #expect(whole.headers["Content-Type"] == "image/jpeg")
            #expect(whole.headers["Content-Length"] == "5500")
            #expect(whole.headers["Accept-Ranges"] == "bytes")
            let etag = try #require(whole.headers["ETag"])

            let range = try await server.request("GET", path, headers: [("Range", "bytes=990-2010")])
            #expect(range.status == 206)
            #expect(range.body == Array(file[990...2010]), "a range across three pieces")
            #expect(range.headers["Content-Range"] == "bytes 990-2010/5500")
            #expect(range.headers["Content-Length"] == "1021")
            let suffix = try await server.request("GET", path, headers: [("Range", "bytes=-10")])
            #expect(suffix.status == 206)
            #expect(suffix.body == Array(file[5490...]))
            let beyond = try await server.request("GET", path, headers: [("Range", "bytes=6000-")])
            #expect(beyond.status == 416)
            #expect(beyond.headers["Content-Range"] == "bytes */5500")

            let head = try await server.request("HEAD", path)
            #expect(head.status == 200)
            #expect(head.headers["Content-Length"] == "5500")
            #expect(try await server.request("GET", path, headers: [("If-None-Match", etag)]).status == 304)
            #expect(try await server.request("GET", "/2020/01/01/00000000000000000000000000000000.jpg").status == 404)

            // The native door's small files go the same way.
            let client = NativeTestClient(server)
            let native = try await client.data(
                "files", ["data": ["filename": "a.txt", "content": .string(Data("hello".utf8).base64EncodedString())]])
            #expect(native["cdn"] == "s3")
            let nativeURL = try #require(native["url"]?.stringValue)
            let nativePath = try #require(URL(string: nativeURL)?.path)
            #expect(try await server.request("GET", nativePath).text == "hello")
        }
    }

    @Test("deleting a file removes its object from the bucket and its record")
    func deleteRemovesObject() async throws {
        try await withS3 { server, moto, bucket in
            let url = try #require(try await upload(server, "gone.png", [1, 2, 3]).json?["url"]?.stringValue)
            let key = try #require(FileKey(urlOrPath: url))
            #expect(try await moto.send("HEAD", "/\(bucket)/\(key.rawValue)").status == 200)
            let deleted = try await server.call("DELETE", "/2/files/upyun/\(key.rawValue)")
            #expect(deleted.json == ["msg": "ok"])
            #expect(try await moto.send("HEAD", "/\(bucket)/\(key.rawValue)").status == 404)
            #expect(try await server.request("GET", "/" + key.rawValue).status == 404)
            let records = try await server.call("GET", "/1/classes/_File", master: true)
            #expect(records.json?["results"]?.arrayValue?.isEmpty == true)
            #expect(try await server.call("DELETE", "/2/files/s3/\(key.rawValue)").json?["code"] == 151)
        }
    }

    @Test("/8/cdn gives the bucket and STS credentials; a multipart upload to moto with them registers and downloads")
    func multipartUpload() async throws {
        try await withS3(
            chunkBytes: 256 * 1024,
            configure: {
                $0.files.uploadThreshold = 64 * 1024
                $0.files.partBytes = 5 * 1024 * 1024
            }
        ) { server, moto, bucket in
            let client = NativeTestClient(server)
            let file = bytes(5 * 1024 * 1024 + 1000, seed: 9)
            let plan = try await client.data(
                "cdn", ["data": ["filename": "movie.mp4", "size": .int(Int64(file.count))]])
            #expect(plan["cdn"] == "s3")
            let upload = try #require(plan["upload"])
            #expect(upload["endpoint"]?.stringValue == moto.url)
            #expect(upload["bucket"]?.stringValue == bucket)
            #expect(upload["region"]?.stringValue == Self.region)
            #expect(upload["partSize"] == .int(5 * 1024 * 1024))
            let key = try #require(upload["key"]?.stringValue)
            #expect(FileKey(key)?.fileExtension == "mp4")
            let block = try #require(upload["credentials"])
            let credentials = SigV4Credentials(
                accessKeyId: try #require(block["accessKeyId"]?.stringValue),
                secretAccessKey: try #require(block["secretAccessKey"]?.stringValue),
                sessionToken: try #require(block["sessionToken"]?.stringValue))
            #expect(credentials.accessKeyId.hasPrefix("ASIA"), "temporary credentials from moto's STS")
            #expect(credentials.accessKeyId != Self.accessKeyId)
            #expect(credentials.secretAccessKey != Self.secretAccessKey, "the server's secret is never handed out")
            let uploadToken = try #require(upload["uploadToken"]?.stringValue)
            #expect(credentials.sessionToken != uploadToken, "on S3 the session token is STS's, not the server's")
            let expiration = try #require(block["expiration"]?.stringValue.flatMap(BmobDateFormat.parse))
            let now = Int64(Date().timeIntervalSince1970 * 1000)
            #expect(expiration > now + 800_000 && expiration < now + 3_700_000, "about 15 minutes")

            // Straight to moto, signed with the plan's credentials, as the SDK's uploader does.
            let objectPath = "/\(bucket)/\(key)"
            let initiated = try await moto.send("POST", objectPath, query: [("uploads", "")], credentials: credentials)
            #expect(initiated.status == 200, "\(initiated.text)")
            let uploadId = try S3InitiateMultipartUploadResult(xml: initiated.body).uploadId
            var etags: [(Int, String)] = []
            for (index, start) in stride(from: 0, to: file.count, by: 5 * 1024 * 1024).enumerated() {
                let part = Array(file[start..<min(start + 5 * 1024 * 1024, file.count)])
                let sent = try await moto.send(
                    "PUT", objectPath, query: [("partNumber", "\(index + 1)"), ("uploadId", uploadId)], body: part,
                    credentials: credentials)
                etags.append((index + 1, try #require(sent.headers["ETag"], "part \(index + 1): \(sent.status)")))
            }
            let listed = try await moto.send(
                "GET", objectPath, query: [("uploadId", uploadId)], credentials: credentials)
            #expect(listed.status == 200, "\(listed.text)")
            // moto names the root after botocore's shape (`ListPartsOutput`), so read the parts loosely.
            let listedParts = try S3XMLReader.parse(listed.body).children("Part").map { $0.optionalText("Size") }
            #expect(listedParts == ["5242880", "1000"])

            // Not complete yet: nothing to register.
            let early = try await client.call(
                "savecdnupload",
                [
                    "data": [
                        "filename": "movie.mp4", "filesize": .int(Int64(file.count)), "cdn": "s3",
                        "sessionToken": .string(uploadToken),
                    ]
                ])
            #expect(early.code == 150)

            let completion = S3CompleteMultipartUpload(parts: etags.map { .init(partNumber: $0.0, etag: $0.1) }).xml
            let completed = try await moto.send(
                "POST", objectPath, query: [("uploadId", uploadId)], body: Array(completion.utf8),
                credentials: credentials)
            #expect(completed.status == 200, "\(completed.text)")

            let wrongSize = try await client.call(
                "savecdnupload",
                [
                    "data": [
                        "filename": "movie.mp4", "filesize": .int(Int64(file.count - 1)), "cdn": "s3",
                        "sessionToken": .string(uploadToken),
                    ]
                ])
            #expect(wrongSize.code == 150, "the size is checked with HeadObject")
            let registered = try await client.data(
                "savecdnupload",
                [
                    "data": [
                        "filename": "movie.mp4", "filesize": .int(Int64(file.count)), "cdn": "s3",
                        "sessionToken": .string(uploadToken),
                    ]
                ])
            #expect(registered["cdn"] == "s3")
            #expect(registered["url"]?.stringValue == server.baseURL + "/" + key)
            let records = try await server.call("GET", "/1/classes/_File", master: true)
            #expect(records.json?["results"]?.arrayValue?.map { $0["size"] } == [.int(Int64(file.count))])

            let downloaded = try await server.request("GET", "/" + key)
            #expect(downloaded.status == 200)
            #expect(downloaded.body == file, "21 ranged reads of 256 KiB, each fetched while the one before is sent")
            let tail = try await server.request("GET", "/" + key, headers: [("Range", "bytes=5242000-")])
            #expect(tail.body == Array(file[5_242_000...]))

            // A key that was planned but never uploaded is not registered either.
            let other = try await client.data("cdn", ["data": ["filename": "other.mp4", "size": 100_000]])
            let never = try await client.call(
                "savecdnupload",
                [
                    "data": [
                        "filename": "other.mp4", "filesize": 100_000, "cdn": "s3",
                        "sessionToken": .string(try #require(other["upload"]?["uploadToken"]?.stringValue)),
                    ]
                ])
            #expect(never.code == 150)
        }
    }

    @Test("S3 errors and an unreachable S3 answer 503/150; the log names the S3 error code, never the secret")
    func storageDown() async throws {
        let recorder = RecordingLogHandler()
        let logger = Logger(label: "s3-test", level: .error, handler: recorder)
        // A bucket that does not exist: S3 answers NoSuchBucket.
        try await withS3(logger: logger, configure: { $0.files.s3?.bucket = "no-such-bucket-here" }) { server, _, _ in
            let refused = try await upload(server, "a.txt", [1, 2, 3])
            #expect(refused.status == 503)
            #expect(refused.json?["code"] == 150)
            #expect(recorder.entries.contains { "\($0)".contains("NoSuchBucket") }, "\(recorder.entries)")
        }

        try await withS3(logger: logger, configure: { $0.files.uploadThreshold = 64 * 1024 }) { server, moto, _ in
            let client = NativeTestClient(server)
            let stored = try #require(try await upload(server, "kept.txt", [4, 5, 6]).json?["url"]?.stringValue)
            let plan = try await client.data("cdn", ["data": ["filename": "movie.mp4", "size": 100_000]])
            let token = try #require(plan["upload"]?["uploadToken"]?.stringValue)
            await moto.stop()

            let upload = try await upload(server, "b.txt", [1])
            #expect(upload.status == 503)
            #expect(upload.json?["code"] == 150)
            let large = try await client.call("cdn", ["data": ["filename": "movie.mp4", "size": 100_000]])
            #expect(large.code == 150)
            let register = try await client.call(
                "savecdnupload",
                ["data": ["filename": "movie.mp4", "filesize": 100_000, "cdn": "s3", "sessionToken": .string(token)]])
            #expect(register.code == 150)
            let download = try await server.request("GET", try #require(URL(string: stored)?.path))
            #expect(download.status == 503)
            // The server keeps answering other requests.
            #expect(try await server.call("GET", "/1/classes/_File", master: true).status == 200)
        }
        #expect(recorder.entries.contains { $0.message.contains("STS AssumeRole") })
        #expect(!recorder.entries.contains { "\($0)".contains(Self.secretAccessKey) }, "the secret is never logged")
    }

    @Test("the s3… settings make files.s3; an incomplete one stops the server from starting and hides the secret")
    func settings() async throws {
        let loaded = try ConfigurationLoader.load(
            flags: ["--s3-bucket": "photos", "--s3-path-style": "false"],
            environment: [
                "BMOB_S3_ENDPOINT": "https://s3.eu-west-1.amazonaws.com/", "BMOB_S3_REGION": "eu-west-1",
                "BMOB_S3_ACCESS_KEY_ID": "AKIA1", "BMOB_S3_SECRET_ACCESS_KEY": "topsecret",
                "BMOB_S3_STS_ENDPOINT": "https://sts.eu-west-1.amazonaws.com",
                "BMOB_S3_ROLE_ARN": "arn:aws:iam::1:role/up",
            ])
        #expect(
            loaded.files.s3
                == S3StorageConfiguration(
                    endpoint: "https://s3.eu-west-1.amazonaws.com", region: "eu-west-1", bucket: "photos",
                    accessKeyId: "AKIA1", secretAccessKey: "topsecret", pathStyle: false,
                    stsEndpoint: "https://sts.eu-west-1.amazonaws.com", roleArn: "arn:aws:iam::1:role/up"))
        #expect(loaded.files.s3?.problems == [])
        #expect(loaded.files.s3.map { "\($0)" }?.contains("topsecret") == false)
        #expect(try ConfigurationLoader.load(flags: [:], environment: [:]).files.s3 == nil, "the local disk by default")
        #expect(throws: ConfigurationError.self) {
            try ConfigurationLoader.load(flags: ["--s3-endpoint": "ftp://x"], environment: [:])
        }
        #expect(throws: ConfigurationError.self) {
            try ConfigurationLoader.load(flags: ["--s3-path-style": "maybe"], environment: [:])
        }

        // What Server.start builds from files.s3: half a configuration is refused, naming what is missing.
        let partialConfiguration = try ConfigurationLoader.load(flags: ["--s3-bucket": "photos"], environment: [:])
        let partial = try #require(partialConfiguration.files.s3)
        do {
            _ = try S3FileStorage(configuration: partial, clock: .system)
            Issue.record("an S3 provider with half a configuration was made")
        } catch {
            #expect(error.message.contains("s3Endpoint") && error.message.contains("s3SecretAccessKey"), "\(error)")
            #expect(!error.message.contains("s3Bucket"))
        }

        let key = try #require(FileKey("2025/01/02/" + String(repeating: "a", count: 32) + ".mp4"))
        let policy = try JSONParser.parse(Array(S3FileStorage.uploadPolicy(bucket: "photos", key: key).utf8))
        let statement = policy["Statement"]?.arrayValue?.first
        #expect(statement?["Resource"] == [.string("arn:aws:s3:::photos/" + key.rawValue)])
        #expect(statement?["Action"] == ["s3:PutObject", "s3:AbortMultipartUpload", "s3:ListMultipartUploadParts"])
        #expect(statement?["Effect"] == "Allow")
    }
}
