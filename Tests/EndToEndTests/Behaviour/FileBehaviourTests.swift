import BmobCore
@testable import BmobFile
import BmobSDK
import BmobServer
import BmobTesting
import BmobWire
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// BmobFile beyond the seed's samples: the multipart uploader against a server whose upload threshold is
// lowered to 64 KiB and whose parts are small (a server and client of their own, so that the shared fixture
// keeps Bmob's 10 MiB), resuming after a cancellation, progress, the server's errors, and the uploader's
// pieces on their own.

extension EndToEnd {
    @Suite("BmobFile behaviour")
    struct FileBehaviourTests {
        /// The threshold of ``multipartServer()``.
        static let threshold = 64 * 1024
        /// The part size ``multipartServer()`` asks for (it may answer more).
        static let partBytes = 256 * 1024

        /// A server with a 64 KiB upload threshold and an SDK client initialized against it.
        private static let multipart = Task { () throws -> (TestServer, BmobClient) in
            // The shared fixture points the SDK's local storage (where resume records live) at its temporary folder.
            _ = try await SDKFixture.server()
            let server = try await TestServer.start {
                $0.files.uploadThreshold = FileBehaviourTests.threshold
                $0.files.partBytes = FileBehaviourTests.partBytes
            }
            let client = BmobClient()
            client.resetDomain(server.baseURL)
            try await client.initialize(appKey: TestServer.applicationId)
            return (server, client)
        }

        static func multipartServer() async throws -> (TestServer, BmobClient) {
            try await multipart.value
        }

        /// `count` bytes that differ from run to run, made quickly (xorshift from a random seed).
        static func randomBytes(_ count: Int) -> Data {
            var data = Data(count: count)
            var state = UInt64.random(in: 1...UInt64.max)
            data.withUnsafeMutableBytes { buffer in
                var index = 0
                while index < buffer.count {
                    state ^= state << 13
                    state ^= state >> 7
                    state ^= state << 17
                    var word = state
                    for _ in 0..<8 where index < buffer.count {
                        buffer[index] = UInt8(truncatingIfNeeded: word)
                        word >>= 8
                        index += 1
                    }
                }
            }
            return data
        }

        /// Writes `data` to a new file named `name` in a folder of its own and returns its path.
        static func writeTemporary(_ data: Data, name: String) throws -> URL {
            let folder = FileManager.default.temporaryDirectory
                .appendingPathComponent("bmob-file-tests-\(UUID().uuidString)", isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let url = folder.appendingPathComponent(name)
            try data.write(to: url)
            return url
        }

        /// The resume records on disk (not the temporaries of their writes).
        static func resumeRecords() -> [URL] {
            let folder = BmobLocalStorage.root.appendingPathComponent(ResumeStore.folderName, isDirectory: true)
            let files = (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? []
            return files.filter { $0.pathExtension == "json" }
        }

        /// The server's count of stored parts once it has stayed the same for 100 ms (at most 5 s): parts an
        /// interrupted upload had in flight may still be landing.
        static func settledPartCount(_ server: TestServer) async throws -> Int {
            var count = server.server.fileUploads.partsReceived
            for _ in 0..<50 {
                try await Task.sleep(for: .milliseconds(100))
                let now = server.server.fileUploads.partsReceived
                if now == count { break }
                count = now
            }
            return count
        }

        /// The bytes and status of a GET of `url`.
        static func download(_ url: String) async throws -> (Data, Int) {
            let (data, response) = try await URLSession.shared.data(from: try #require(URL(string: url)))
            return (data, (response as? HTTPURLResponse)?.statusCode ?? 0)
        }

        // MARK: - Multipart

        @Test("A file at or above the threshold goes in parts; progress is monotonic and ends at 1.0")
        func multipartFromPath() async throws {
            let (_, client) = try await Self.multipartServer()
            let bytes = Self.randomBytes(3 * 1024 * 1024 + 12_345)
            let source = try Self.writeTemporary(bytes, name: "movie.mp4")
            let file = try #require(BmobFile(filePath: source.path))
            file.client = client
            let events = EventLog()
            file.multipartObserver = { events.append($0) }
            let progress = ValueLog<Double>()

            try await file.upload { progress.append($0) }

            let url = try #require(file.url)
            #expect(url.hasSuffix(".mp4"))
            #expect(file.filename == "movie.mp4")
            let partCount = try #require(events.initiatedPartCount)
            #expect(partCount >= 2)
            #expect(events.values.last == .completed)
            #expect(Set(events.acknowledged) == Set(1...partCount))
            #expect(Set(events.sent) == Set(events.acknowledged))
            let values = progress.values
            #expect(values.first == 0)
            #expect(values.last == 1.0)
            #expect(values == values.sorted())
            #expect(values.dropLast().allSatisfy { $0 < 1.0 })
            #expect(values.count >= 3)
            let (downloaded, status) = try await Self.download(url)
            #expect(status == 200)
            #expect(downloaded == bytes)
            // Registered: the record is gone.
            #expect(Self.resumeRecords().isEmpty)
            try await file.delete()
            #expect(try await Self.download(url).1 == 404)
        }

        @Test("Bytes in memory above the threshold go in parts too")
        func multipartFromData() async throws {
            let (_, client) = try await Self.multipartServer()
            let bytes = Self.randomBytes(200 * 1024)
            let file = BmobFile(data: bytes, filename: "blob.bin")
            file.client = client
            let events = EventLog()
            file.multipartObserver = { events.append($0) }
            try await file.upload()
            #expect(events.values.contains(.completed))
            #expect(try await Self.download(try #require(file.url)).0 == bytes)
        }

        @Test("Below the threshold the bytes go in one request")
        func belowThreshold() async throws {
            let (_, client) = try await Self.multipartServer()
            let bytes = Self.randomBytes(Self.threshold - 1)
            let file = BmobFile(data: bytes, filename: "small.txt")
            file.client = client
            let events = EventLog()
            file.multipartObserver = { events.append($0) }
            let progress = ValueLog<Double>()
            try await file.upload { progress.append($0) }
            #expect(events.values.isEmpty)
            #expect(progress.values.last == 1.0)
            #expect(progress.values.dropLast().allSatisfy { $0 < 1.0 })
            #expect(try await Self.download(try #require(file.url)).0 == bytes)
        }

        @Test("A cancelled upload resumes in a new BmobFile without sending the acknowledged parts again")
        func resumeAfterCancellation() async throws {
            let (server, client) = try await Self.multipartServer()
            let bytes = Self.randomBytes(6 * 1024 * 1024 + 1)
            let source = try Self.writeTemporary(bytes, name: "long.mov")
            let recordsBefore = Set(Self.resumeRecords())

            let first = try #require(BmobFile(filePath: source.path))
            first.client = client
            let firstEvents = EventLog()
            let canceller = Canceller()
            first.multipartObserver = { event in
                firstEvents.append(event)
                if case .acknowledged = event { canceller.cancel() }
            }
            let firstProgress = ValueLog<Double>()
            let task = Task { try await first.upload { firstProgress.append($0) } }
            canceller.set(task)
            let outcome = await task.result
            #expect(throws: CancellationError.self) { try outcome.get() }
            #expect(first.url == nil)
            #expect(!firstProgress.values.contains(1.0))
            let acknowledged = Set(firstEvents.acknowledged)
            #expect(!acknowledged.isEmpty)
            #expect(!firstEvents.values.contains(.completed))
            // The record stays for the next attempt.
            let records = Set(Self.resumeRecords()).subtracting(recordsBefore)
            #expect(records.count == 1)

            // As after an app restart: a new object for the same name and content.
            let second = try #require(BmobFile(filePath: source.path))
            second.client = client
            let secondEvents = EventLog()
            second.multipartObserver = { secondEvents.append($0) }
            let secondProgress = ValueLog<Double>()
            // A part the cancelled upload had in flight may still be landing on the server: count from once the
            // server's counter has been still for a while.
            let partsBefore = try await Self.settledPartCount(server)
            try await second.upload { secondProgress.append($0) }
            let partsStored = server.server.fileUploads.partsReceived - partsBefore

            let partCount = try #require(firstEvents.initiatedPartCount)
            #expect(partCount >= 4)
            let resumed = try #require(secondEvents.resumedParts)
            #expect(acknowledged.isSubset(of: Set(resumed)))
            #expect(secondEvents.initiatedPartCount == nil)
            #expect(Set(secondEvents.sent).isDisjoint(with: acknowledged))
            #expect(Set(secondEvents.sent).union(resumed) == Set(1...partCount))
            #expect(!secondEvents.sent.isEmpty)
            // The server's count agrees: it stored only the missing parts.
            #expect(partsStored == partCount - resumed.count)
            #expect(partsStored == secondEvents.sent.count)
            // Progress starts from the bytes already stored.
            let values = secondProgress.values
            #expect(values.count >= 2 && values[1] > 0)
            #expect(values == values.sorted() && values.last == 1.0)
            #expect(Set(Self.resumeRecords()).subtracting(recordsBefore).isEmpty)
            let url = try #require(second.url)
            let (downloaded, status) = try await Self.download(url)
            #expect(status == 200)
            #expect(downloaded == bytes)
        }

        @Test("Retrying upload() on the same object after a cancellation keeps its progress")
        func retrySameObject() async throws {
            let (_, client) = try await Self.multipartServer()
            let bytes = Self.randomBytes(5 * 1024 * 1024)
            let file = BmobFile(data: bytes, filename: "retry.zip")
            file.client = client
            let events = EventLog()
            let canceller = Canceller()
            file.multipartObserver = { event in
                events.append(event)
                if case .acknowledged = event { canceller.cancel() }
            }
            let task = Task { try await file.upload() }
            canceller.set(task)
            let outcome = await task.result
            #expect(throws: CancellationError.self) { try outcome.get() }
            let acknowledged = Set(events.acknowledged)
            #expect(!acknowledged.isEmpty)

            let retried = EventLog()
            file.multipartObserver = { retried.append($0) }
            try await file.upload()
            #expect(acknowledged.isSubset(of: Set(retried.resumedParts ?? [])))
            #expect(Set(retried.sent).isDisjoint(with: acknowledged))
            #expect(try await Self.download(try #require(file.url)).0 == bytes)
        }

        @Test("A record naming an upload the storage no longer has starts over")
        func staleRecord() async throws {
            let (server, client) = try await Self.multipartServer()
            let bytes = Self.randomBytes(3 * 1024 * 1024)
            let first = BmobFile(data: bytes, filename: "stale.bin")
            first.client = client
            let canceller = Canceller()
            first.multipartObserver = { event in
                if case .acknowledged = event { canceller.cancel() }
            }
            let task = Task { try await first.upload() }
            canceller.set(task)
            let outcome = await task.result
            #expect(throws: CancellationError.self) { try outcome.get() }
            // The storage forgets its unfinished uploads (as its expiry sweep would).
            let uploads = server.dataDirectory.appendingPathComponent("files/.uploads", isDirectory: true)
            // The server may still be removing the temporary file of a part the cancellation cut off.
            for _ in 0..<50 where FileManager.default.fileExists(atPath: uploads.path) {
                try? FileManager.default.removeItem(at: uploads)
                try await Task.sleep(nanoseconds: 20_000_000)
            }
            #expect(!FileManager.default.fileExists(atPath: uploads.path))

            let second = BmobFile(data: bytes, filename: "stale.bin")
            second.client = client
            let events = EventLog()
            second.multipartObserver = { events.append($0) }
            try await second.upload()
            #expect(events.resumedParts == nil)
            #expect(events.initiatedPartCount != nil)
            #expect(try await Self.download(try #require(second.url)).0 == bytes)
        }

        @Test("A cancellation before any part stops promptly and the next upload finishes")
        func cancelBeforeParts() async throws {
            let (_, client) = try await Self.multipartServer()
            let bytes = Self.randomBytes(300 * 1024)
            let file = BmobFile(data: bytes, filename: "early.dat")
            file.client = client
            let task = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                try await file.upload()
            }
            let outcome = await task.result
            #expect(throws: CancellationError.self) { try outcome.get() }
            #expect(file.url == nil)
            try await file.upload()
            #expect(try await Self.download(try #require(file.url)).0 == bytes)
        }

        @Test("Credentials about to expire are renewed through /8/cdn for the same key")
        func credentialRenewal() async throws {
            _ = try await SDKFixture.server()
            // Credentials valid for 60 s are always within the uploader's 60 s renewal margin.
            let server = try await TestServer.start {
                $0.files.uploadThreshold = FileBehaviourTests.threshold
                $0.files.partBytes = FileBehaviourTests.partBytes
                $0.files.credentialSeconds = 60
            }
            let client = BmobClient()
            client.resetDomain(server.baseURL)
            try await client.initialize(appKey: TestServer.applicationId)
            let bytes = Self.randomBytes(2 * 1024 * 1024 + 17)
            let file = BmobFile(data: bytes, filename: "renew.bin")
            file.client = client
            let events = EventLog()
            file.multipartObserver = { events.append($0) }
            try await file.upload()
            #expect(events.values.contains(.credentialsRenewed))
            #expect(try await Self.download(try #require(file.url)).0 == bytes)
            await server.stop()
        }

        // MARK: - Errors and edges

        @Test("Empty data: the server's 149 surfaces as a BmobError")
        func emptyData() async throws {
            _ = try await SDKFixture.server()
            let file = BmobFile(data: Data(), filename: "empty.txt")
            await #expect {
                try await file.upload()
            } throws: { error in
                (error as? BmobError)?.code == 149
            }
            #expect(file.url == nil)
            // The object can be used again.
            await #expect(throws: BmobError.self) { try await file.upload() }
        }

        @Test("A name without a suffix is refused with 146; the MIME type falls back to octet-stream")
        func nameWithoutSuffix() async throws {
            _ = try await SDKFixture.server()
            let file = BmobFile(data: Data("hello".utf8), filename: "README")
            #expect(file.mimeType == "application/octet-stream")
            await #expect {
                try await file.upload()
            } throws: { error in
                (error as? BmobError)?.code == 146
            }
        }

        @Test("Deleting a file that does not exist: 151; a batch naming one: 154")
        func deleteMissing() async throws {
            let server = try await SDKFixture.server()
            let url = server.baseURL + "/2020/01/01/0123456789abcdef0123456789abcdef.jpg"
            let file = try #require(BmobFile(url: url, cdn: nil))
            await #expect {
                try await file.delete()
            } throws: { error in
                (error as? BmobError)?.code == 151
            }
            await #expect {
                try await BmobFile.deleteBatch(urls: [url])
            } throws: { error in
                (error as? BmobError)?.code == 154
            }
            // Nothing to delete is nothing to do.
            try await BmobFile.deleteBatch(urls: [])
        }

        @Test("Initializers: missing paths, directories and URLs without a path answer nil")
        func initializers() throws {
            #expect(BmobFile(filePath: "/no/such/file.jpg") == nil)
            #expect(BmobFile(filePath: FileManager.default.temporaryDirectory.path) == nil)
            #expect(BmobFile(filePath: "") == nil)
            #expect(BmobFile(url: "https://files.example.com", cdn: "upyun") == nil)
            #expect(BmobFile(url: "https://files.example.com/", cdn: "upyun") == nil)
            let file = try #require(BmobFile(url: "https://files.example.com/2024/04/12/abc.png", cdn: "upyun"))
            #expect(file.filename == "abc.png")
            #expect(file.url == "https://files.example.com/2024/04/12/abc.png")
            #expect(file.cdn == "upyun")
            #expect(
                file.fileDict(filename: "a.png") == [
                    "__type": "File", "filename": "a.png", "url": "https://files.example.com/2024/04/12/abc.png",
                    "group": "upyun",
                ])
            #expect(BmobFile(data: Data(), filename: "a.JPG").mimeType == "image/jpeg")
            #expect(BmobFile(data: Data(), filename: "a.jpg", mimeType: "image/png").mimeType == "image/png")
        }

        @Test("A file made from a URL cannot be uploaded; one never uploaded cannot be deleted")
        func misuse() async throws {
            let file = try #require(BmobFile(url: "https://files.example.com/2024/04/12/abc.png", cdn: nil))
            await #expect {
                try await file.upload()
            } throws: { error in
                guard case BmobError.invalidParameter = error else { return false }
                return true
            }
            await #expect {
                try await BmobFile(data: Data("x".utf8), filename: "x.txt").delete()
            } throws: { error in
                guard case BmobError.invalidParameter = error else { return false }
                return true
            }
        }

        // MARK: - Pieces

        @Test("ProgressMeter: monotonic, capped below 1 until finish, each value once")
        func progressMeter() {
            let log = ValueLog<Double>()
            let meter = ProgressMeter(total: 100) { log.append($0) }
            meter.start()
            meter.advance(by: 40)
            meter.advance(by: 0)
            meter.advance(by: 60)
            meter.advance(by: 10)
            meter.finish()
            meter.finish()
            #expect(log.values == [0, 0.4, ProgressMeter.ceiling, 1.0])

            let empty = ValueLog<Double>()
            let zero = ProgressMeter(total: 0) { empty.append($0) }
            zero.start()
            zero.advance(by: 5)
            zero.finish()
            #expect(empty.values == [0, 1.0])
        }

        @Test("ResumeRecord: part count and sizes")
        func resumeRecord() {
            let record = ResumeRecord(
                filename: "a.mp4", contentHash: "00", size: 20, key: "k", uploadId: "u", sessionToken: "t", cdn: "local",
                partSize: 8, parts: [], completed: false)
            #expect(record.partCount == 3)
            #expect((1...3).map(record.expectedSize(ofPart:)) == [8, 8, 4])
        }

        @Test("/8/cdn answers: the upload block and credentials, with ISO 8601 expiration")
        func grantParsing() throws {
            let json: JSONValue = [
                "uploadThreshold": 65536, "cdn": "local",
                "upload": [
                    "endpoint": "http://127.0.0.1:9/s3/", "region": "bmob", "bucket": "files",
                    "key": "2026/01/02/0123456789abcdef0123456789abcdef.mp4", "partSize": 8_388_608,
                    "credentials": [
                        "accessKeyId": "AK", "secretAccessKey": "SK", "sessionToken": "TOKEN",
                        "expiration": "2030-01-02T03:04:05Z",
                    ],
                ],
            ]
            let grant = try CDNGrant(json: json)
            #expect(grant.uploadThreshold == 65536)
            let upload = try #require(grant.upload)
            #expect(upload.endpoint.absoluteString == "http://127.0.0.1:9/s3")
            #expect(upload.partSize == 8_388_608)
            #expect(upload.credentials.expiration == Date(timeIntervalSince1970: 1_893_553_445))
            #expect(!upload.credentials.expires(within: 60, of: Date(timeIntervalSince1970: 1_893_553_000)))
            #expect(upload.credentials.expires(within: 60, of: Date(timeIntervalSince1970: 1_893_553_400)))
            #expect(throws: BmobError.self) { try CDNGrant(json: ["cdn": "local"]) }
            #expect(throws: BmobError.self) { try CDNGrant(json: ["uploadThreshold": 1, "upload": ["region": "x"]]) }
            #expect(try CDNGrant(json: ["uploadThreshold": 10, "cdn": "s3"]).upload == nil)
        }

        @Test("Keys from URLs")
        func keys() {
            #expect(
                FileLocation.key(ofURL: "http://h:1/2024/04/12/0123456789abcdef0123456789abcdef.png?x=1")
                    == "2024/04/12/0123456789abcdef0123456789abcdef.png")
            #expect(FileLocation.key(ofURL: "http://bmob-cdn-1.b0.upaiyun.com/2019/01/09/x.png") == "2019/01/09/x.png")
            #expect(FileLocation.key(ofURL: "http://h") == nil)
        }

        @Test("A resume record's temporary that a killed app left behind is removed once stale, and only then")
        func staleTemporaries() throws {
            let folder = FileManager.default.temporaryDirectory
                .appendingPathComponent("bmob-resume-sweep-\(UUID().uuidString)", isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let stale = folder.appendingPathComponent("a.json" + ResumeStore.temporaryMarker + "1")
            let fresh = folder.appendingPathComponent("b.json" + ResumeStore.temporaryMarker + "2")
            let record = folder.appendingPathComponent("c.json")
            for url in [stale, fresh, record] { try Data("{}".utf8).write(to: url) }
            let old = Date().addingTimeInterval(-3600)
            for url in [stale, record] {
                try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: url.path)
            }
            ResumeStore.removeStaleTemporaries(in: folder, olderThan: ResumeStore.staleTemporarySeconds)
            #expect(!FileManager.default.fileExists(atPath: stale.path))
            #expect(FileManager.default.fileExists(atPath: fresh.path))
            #expect(FileManager.default.fileExists(atPath: record.path))
        }

        @Test("S3 error bodies")
        func s3Errors() {
            let body = Data("<?xml version=\"1.0\"?><Error><Code>NoSuchUpload</Code><Message>gone</Message></Error>".utf8)
            let failure = S3Messages.failure(in: body, status: 404)
            #expect(failure == S3Failure(status: 404, code: "NoSuchUpload", message: "gone"))
            #expect(failure?.isUnknownUpload == true)
            #expect(failure?.bmobError.code == 150)
            #expect(S3Failure(status: 403, code: "ExpiredToken", message: "").isCredentialProblem)
            #expect(S3Failure(status: 503, code: "SlowDown", message: "").isTransient)
            #expect(S3Messages.failure(in: Data("<InitiateMultipartUploadResult/>".utf8), status: 200) == nil)
        }

        // MARK: - Recorders

        /// The multipart events of one upload.
        typealias EventLog = ValueLog<MultipartEvent>

        /// Cancels a task from a callback that may come before the task is known.
        final class Canceller: @unchecked Sendable {
            // Invariant: `task` and `requested` are only touched under `lock`.
            private let lock = NSLock()
            private var task: Task<Void, any Error>?
            private var requested = false

            func set(_ task: Task<Void, any Error>) {
                let cancelNow = lock.withLock {
                    self.task = task
                    return requested
                }
                if cancelNow { task.cancel() }
            }

            func cancel() {
                let task = lock.withLock {
                    requested = true
                    return self.task
                }
                task?.cancel()
            }
        }
    }
}

extension ValueLog where Value == MultipartEvent {
    /// The parts whose bytes were sent (each attempt).
    var sent: [Int] {
        values.compactMap { if case .sending(let part) = $0 { part } else { nil } }
    }

    /// The parts the storage acknowledged.
    var acknowledged: [Int] {
        values.compactMap { if case .acknowledged(let part) = $0 { part } else { nil } }
    }

    /// The parts found in the storage when resuming, or `nil` when the upload did not resume.
    var resumedParts: [Int]? {
        values.lazy.compactMap { if case .resumed(let parts, _) = $0 { parts } else { nil } }.first
    }

    /// The part count of a new upload, or `nil` when none began.
    var initiatedPartCount: Int? {
        values.lazy.compactMap { if case .initiated(let count) = $0 { count } else { nil } }.first
    }
}
