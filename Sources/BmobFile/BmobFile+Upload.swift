import BmobCore
import Foundation

extension BmobFile {
    /// Uploads the file; afterwards ``url``, ``cdn`` and ``filename`` are what the server stored.
    ///
    /// Files below the server's `uploadThreshold` go in one request (`/8/files`); larger ones are sent in
    /// parts straight to the storage and registered through `/8/savecdnupload`. A large upload that fails or
    /// is cancelled can be continued: call `upload()` again, on this object or, after an app restart, on a new
    /// `BmobFile` with the same name and content; only the parts the storage lacks are sent.
    ///
    /// - Throws: `CancellationError` when the calling task is cancelled (a large upload keeps its progress for a
    ///   later call); ``BmobError/serverError(code:message:)`` with Bmob's code (149 empty file, 146 bad name,
    ///   145 too large, 150 storage failure); ``BmobError/networkError(underlying:)`` when the storage cannot be
    ///   reached; ``BmobError/invalidParameter(reason:)`` for a file made from a URL, a local file that cannot be
    ///   read, or while another upload of this file runs.
    public func upload() async throws {
        try await upload(progress: { _ in })
    }

    /// Uploads the file, reporting progress; see ``upload()``.
    ///
    /// ```swift
    /// try await file.upload { progress in
    ///     print("上传进度: \(Int(progress * 100))%")
    /// }
    /// ```
    ///
    /// - Parameter progress: called with the share of bytes the server acknowledged, `0.0...1.0`, never
    ///   decreasing; `1.0` only once the file is stored. It runs on a background thread: switch to the main
    ///   actor to update the interface.
    /// - Throws: as ``upload()``.
    public func upload(progress: @escaping @Sendable (Double) -> Void) async throws {
        let job = try beginUpload()
        let size: Int64
        do {
            size = try job.content.byteCount()
        } catch {
            endUpload(stored: nil, contentHash: nil)
            throw error
        }
        let meter = ProgressMeter(total: size, report: progress)
        meter.start()
        try await run(job, size: size) { meter.advance(by: $0) }
        meter.finish()
    }

    /// Runs the upload ``beginUpload()`` started, of `size` bytes, and ends it.
    ///
    /// - Parameter onBytes: called with byte counts as the server acknowledges them.
    func run(_ job: UploadJob, size: Int64, onBytes: @escaping @Sendable (Int64) -> Void) async throws {
        var contentHash = job.contentHash
        do {
            let stored = try await Self.transfer(job, size: size, contentHash: &contentHash, onBytes: onBytes)
            endUpload(stored: stored, contentHash: contentHash)
        } catch {
            endUpload(stored: nil, contentHash: contentHash)
            throw Self.publicError(error)
        }
    }

    /// Uploads `job`'s content of `size` bytes the way `/8/cdn` says and returns what the server stored.
    /// `contentHash` is the content's SHA-256, computed here for a large file when not known yet.
    static func transfer(
        _ job: UploadJob, size: Int64, contentHash: inout String?, onBytes: @escaping @Sendable (Int64) -> Void
    ) async throws -> StoredFile {
        try Task.checkCancellation()
        let routes = FileRoutes(client: job.client)
        let grant = try await routes.grant(filename: job.filename, size: size)
        guard size >= grant.uploadThreshold else {
            let bytes = try job.content.allBytes()
            try Task.checkCancellation()
            let stored = try await routes.store(filename: job.filename, mimeType: job.mimeType, content: bytes)
            onBytes(size)
            return stored
        }
        let hash = try contentHash ?? ContentDigest.hex(of: job.content)
        contentHash = hash
        return try await MultipartUploader.upload(
            job: job, size: size, contentHash: hash, grant: grant, onBytes: onBytes)
    }

    /// `error` as the SDK throws it: cancellation as `CancellationError`, everything else as ``BmobError``.
    static func publicError(_ error: any Error) -> any Error {
        // However the cancellation surfaced (a cancelled request, a network error), it is a cancellation.
        if Task.isCancelled { return CancellationError() }
        switch error {
        case is CancellationError, is BmobError: return error
        case let failure as S3Failure: return failure.bmobError
        case let urlError as URLError:
            if urlError.code == .timedOut { return BmobError.timeout }
            return BmobError.networkError(underlying: urlError)
        default: return BmobError.networkError(underlying: error)
        }
    }
}
