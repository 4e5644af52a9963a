import BmobCore
import BmobWire
import Foundation

/// One multipart upload of a large file, resumable: it begins one at the storage (or picks up the one its
/// resume record names, sending only the parts the storage does not list), sends the parts a few at a time,
/// completes the upload and registers the file through `/8/savecdnupload`.
///
/// The resume record is written when the upload begins and after every acknowledged part, kept when the
/// upload fails or is cancelled, and removed once the file is registered (or when it names an upload that
/// cannot be continued).
///
/// Thread safety: `record` is read and written only while `lock` is held (the disk write too, so records are
/// written in order), and no lock is held across an `await`; that is what makes the `@unchecked Sendable`
/// sound.
final class MultipartUploader: @unchecked Sendable {
    /// Parts in flight at once; memory use is at most this many parts.
    static let concurrentParts = 3
    /// Attempts per part (and per completion) before an error is thrown.
    static let attempts = 3

    private let job: UploadJob
    private let size: Int64
    private let routes: FileRoutes
    private let store: ResumeStore
    private let clockOffset: Int
    private let onBytes: @Sendable (Int64) -> Void
    private let lock = NSLock()
    private var record: ResumeRecord

    private init(
        job: UploadJob, size: Int64, store: ResumeStore, clockOffset: Int, record: ResumeRecord,
        onBytes: @escaping @Sendable (Int64) -> Void
    ) {
        self.job = job
        self.size = size
        self.routes = FileRoutes(client: job.client)
        self.store = store
        self.clockOffset = clockOffset
        self.record = record
        self.onBytes = onBytes
    }

    /// Uploads `job`'s content of `size` bytes, whose SHA-256 is `contentHash`, starting from `grant` (the
    /// `/8/cdn` answer for its size), and returns the registered file.
    ///
    /// - Parameter onBytes: called with each part's size once the storage acknowledged it (the parts already
    ///   there when resuming are reported at the start).
    /// - Throws: `CancellationError` when the task is cancelled (the record is kept); ``BmobError`` otherwise.
    static func upload(
        job: UploadJob, size: Int64, contentHash: String, grant: CDNGrant,
        onBytes: @escaping @Sendable (Int64) -> Void
    ) async throws -> StoredFile {
        let session = try await job.client.requireSession()
        let store = ResumeStore(
            domain: session.domain.absoluteString, appKey: session.appKey, filename: job.filename,
            contentHash: contentHash)
        let routes = FileRoutes(client: job.client)
        var start: (ResumeRecord, MultipartTarget)?
        if let saved = store.load(), saved.size == size, saved.filename == job.filename, saved.partSize > 0 {
            start = try await resume(saved, routes: routes, store: store, clockOffset: session.clockOffset, job: job)
        }
        if start == nil {
            start = try await begin(
                grant: grant, job: job, size: size, contentHash: contentHash, store: store,
                clockOffset: session.clockOffset)
        }
        guard let start else { throw BmobError.jsonParsingFailed }
        let (record, target) = start
        let uploader = MultipartUploader(
            job: job, size: size, store: store, clockOffset: session.clockOffset, record: record, onBytes: onBytes)
        return try await uploader.run(target: target)
    }

    // MARK: - Starting

    /// Begins a new upload at the storage and writes its record.
    private static func begin(
        grant: CDNGrant, job: UploadJob, size: Int64, contentHash: String, store: ResumeStore, clockOffset: Int
    ) async throws -> (ResumeRecord, MultipartTarget) {
        guard let target = grant.upload else { throw BmobError.jsonParsingFailed }
        let client = S3MultipartClient(target: target, clockOffset: clockOffset)
        let uploadId: String
        do {
            uploadId = try await client.initiate(contentType: job.mimeType)
        } catch let failure as S3Failure {
            throw failure.bmobError
        }
        let record = ResumeRecord(
            filename: job.filename, contentHash: contentHash, size: size, key: target.key, uploadId: uploadId,
            sessionToken: target.uploadToken, cdn: grant.cdn, partSize: target.partSize, parts: [],
            completed: false)
        store.save(record)
        job.observer?(.initiated(partCount: record.partCount))
        return (record, target)
    }

    /// Picks up the upload `saved` names: fresh credentials for its key, and the parts the storage has. `nil`
    /// (with the record removed) when it cannot be continued.
    private static func resume(
        _ saved: ResumeRecord, routes: FileRoutes, store: ResumeStore, clockOffset: Int, job: UploadJob
    ) async throws -> (ResumeRecord, MultipartTarget)? {
        let grant: CDNGrant
        do {
            grant = try await routes.grant(filename: saved.filename, size: saved.size, resume: saved.sessionToken)
        } catch {
            guard error.code != nil else { throw error }
            // The server no longer vouches for the key (another app, a token it cannot read): start over.
            store.remove()
            return nil
        }
        guard var target = grant.upload, target.key == saved.key else {
            store.remove()
            return nil
        }
        target.partSize = saved.partSize
        var record = saved
        record.sessionToken = target.uploadToken
        if !grant.cdn.isEmpty { record.cdn = grant.cdn }
        if !record.completed {
            let listed: [UploadedPart]
            do {
                listed = try await S3MultipartClient(target: target, clockOffset: clockOffset)
                    .listParts(uploadId: record.uploadId)
            } catch let failure as S3Failure where failure.isUnknownUpload {
                store.remove()
                return nil
            } catch let failure as S3Failure {
                throw failure.bmobError
            }
            // The storage is the truth; a part of the wrong size (a changed file, a different part size) is sent
            // again.
            record.parts = listed.filter {
                (1...max(1, record.partCount)).contains($0.number) && $0.size == record.expectedSize(ofPart: $0.number)
            }
        }
        store.save(record)
        job.observer?(.resumed(parts: record.parts.map(\.number).sorted(), partCount: record.partCount))
        return (record, target)
    }

    // MARK: - Running

    private func run(target: MultipartTarget) async throws -> StoredFile {
        let keeper = CredentialKeeper(
            target: target, routes: routes, filename: job.filename, size: size, observer: job.observer)
        let (done, partCount, completed) = lock.withLock {
            (record.parts.reduce(Int64(0)) { $0 + $1.size }, record.partCount, record.completed)
        }
        onBytes(done)
        if !completed {
            let have = Set(lock.withLock { record.parts.map(\.number) })
            let missing = (1...max(1, partCount)).filter { !have.contains($0) }
            try await send(parts: missing, keeper: keeper)
            try await complete(keeper: keeper)
        }
        return try await register(keeper: keeper)
    }

    /// Sends `parts`, at most ``concurrentParts`` at once, recording each as it is acknowledged.
    private func send(parts: [Int], keeper: CredentialKeeper) async throws {
        try await withThrowingTaskGroup(of: UploadedPart.self) { group in
            var pending = parts.makeIterator()
            for _ in 0..<Self.concurrentParts {
                guard let number = pending.next() else { break }
                group.addTask { try await self.sendPart(number, keeper: keeper) }
            }
            while let part = try await group.next() {
                acknowledge(part)
                try Task.checkCancellation()
                if let number = pending.next() {
                    group.addTask { try await self.sendPart(number, keeper: keeper) }
                }
            }
        }
    }

    /// Reads part `number` (only that part) and sends it, renewing credentials or trying again on errors
    /// that allow it.
    private func sendPart(_ number: Int, keeper: CredentialKeeper) async throws -> UploadedPart {
        try Task.checkCancellation()
        let (uploadId, partSize, expected) = lock.withLock {
            (record.uploadId, record.partSize, record.expectedSize(ofPart: number))
        }
        let body = try job.content.read(offset: Int64(number - 1) * Int64(partSize), count: Int(expected))
        guard Int64(body.count) == expected else {
            throw BmobError.invalidParameter(reason: "the file changed while it was being uploaded")
        }
        var attempt = 1
        var renewed = false
        while true {
            try Task.checkCancellation()
            let target = try await keeper.current()
            do {
                job.observer?(.sending(part: number))
                let etag = try await S3MultipartClient(target: target, clockOffset: clockOffset)
                    .uploadPart(uploadId: uploadId, number: number, body: body)
                return UploadedPart(number: number, etag: etag, size: expected)
            } catch let failure as S3Failure where failure.isCredentialProblem && !renewed {
                renewed = true
                _ = try await keeper.renew(replacing: target)
            } catch where attempt < Self.attempts && Self.isTransient(error) {
                try await Self.pause(before: attempt)
                attempt += 1
            } catch let failure as S3Failure {
                throw failure.bmobError
            }
        }
    }

    /// Records an acknowledged part on disk and in the progress.
    private func acknowledge(_ part: UploadedPart) {
        lock.withLock {
            record.parts.removeAll { $0.number == part.number }
            record.parts.append(part)
            store.save(record)
        }
        job.observer?(.acknowledged(part: part.number))
        onBytes(part.size)
    }

    /// Asks the storage to assemble the parts.
    private func complete(keeper: CredentialKeeper) async throws {
        let (uploadId, parts) = lock.withLock { (record.uploadId, record.parts.sorted { $0.number < $1.number }) }
        var attempt = 1
        var renewed = false
        while true {
            try Task.checkCancellation()
            let target = try await keeper.current()
            do {
                try await S3MultipartClient(target: target, clockOffset: clockOffset)
                    .complete(uploadId: uploadId, parts: parts)
                break
            } catch let failure as S3Failure where failure.isUnknownUpload && attempt > 1 {
                // An earlier attempt completed it but its answer was lost; the registration checks the object.
                break
            } catch let failure as S3Failure where failure.isCredentialProblem && !renewed {
                renewed = true
                _ = try await keeper.renew(replacing: target)
            } catch where attempt < Self.attempts && Self.isTransient(error) {
                try await Self.pause(before: attempt)
                attempt += 1
            } catch let failure as S3Failure {
                if failure.isUnknownUpload || failure.status == 400 {
                    // The upload is gone or its parts do not fit together: the next attempt starts over.
                    store.remove()
                }
                throw failure.bmobError
            }
        }
        lock.withLock {
            record.completed = true
            store.save(record)
        }
        job.observer?(.completed)
    }

    /// Registers the assembled file and removes the record.
    private func register(keeper: CredentialKeeper) async throws -> StoredFile {
        try Task.checkCancellation()
        let (key, cdn) = lock.withLock { (record.key, record.cdn) }
        // The server accepts only a token that has not expired.
        let token = try await keeper.current().uploadToken
        do {
            let stored = try await routes.register(
                key: key, filename: job.filename, size: size, cdn: cdn, sessionToken: token)
            store.remove()
            return stored
        } catch {
            // The server refused the object (missing, wrong size): the record leads nowhere.
            if error.code != nil { store.remove() }
            throw error
        }
    }

    // MARK: - Errors

    /// Whether `error` may go away when the request is sent again.
    private static func isTransient(_ error: any Error) -> Bool {
        if error is CancellationError { return false }
        if let failure = error as? S3Failure { return failure.isTransient }
        if let urlError = error as? URLError { return urlError.code != .cancelled }
        return false
    }

    /// Waits before attempt `attempt + 1`: 0.5 s, then 1 s.
    private static func pause(before attempt: Int) async throws {
        try await Task.sleep(nanoseconds: UInt64(500_000_000) << UInt64(attempt - 1))
    }
}
