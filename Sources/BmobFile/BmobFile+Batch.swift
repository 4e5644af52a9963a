import BmobCore
import Foundation

extension BmobFile {
    /// Uploads several files one after another and returns them, each with its ``url`` and ``cdn`` set.
    ///
    /// ```swift
    /// let uploaded = try await BmobFile.uploadBatch(files) { progress in
    ///     print("批量上传进度: \(Int(progress * 100))%")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - files: The files, uploaded in this order.
    ///   - progress: called with the share of all the files' bytes acknowledged, `0.0...1.0`, never
    ///     decreasing; `1.0` once every file is stored. It runs on a background thread.
    /// - Returns: `files`, uploaded.
    /// - Throws: the first error, as ``upload()`` throws it; the files before the one that failed stay
    ///   uploaded.
    @discardableResult
    public static func uploadBatch(
        _ files: [BmobFile], progress: @escaping @Sendable (Double) -> Void = { _ in }
    ) async throws -> [BmobFile] {
        var sizes: [Int64] = []
        for file in files {
            guard let content = file.content else {
                throw BmobError.invalidParameter(reason: "a BmobFile made from a URL has no bytes to upload")
            }
            sizes.append(try content.byteCount())
        }
        let meter = ProgressMeter(total: sizes.reduce(0, +), report: progress)
        meter.start()
        for (file, size) in zip(files, sizes) {
            let job = try file.beginUpload()
            let counter = ByteCounter()
            try await file.run(job, size: size) { bytes in
                counter.add(bytes)
                meter.advance(by: bytes)
            }
            // Whatever the upload did not report (a file that changed size since) counts as done now.
            meter.advance(by: size - counter.total)
        }
        meter.finish()
        return files
    }
}
