package import BmobCore
import BmobWire
public import Foundation

/// A file stored by the server: made from bytes or a local path and uploaded, or named by the URL an earlier
/// upload returned (to delete it).
///
/// ```swift
/// let file = BmobFile(data: imageData, filename: "photo.jpg", mimeType: "image/jpeg")
/// try await file.upload { progress in
///     print("上传进度: \(Int(progress * 100))%")
/// }
/// print("文件 URL: \(file.url!)")
/// ```
///
/// Files below the server's `uploadThreshold` (10 MiB by default) go in one request; larger ones in parts,
/// straight to the storage, and can be resumed: after a failure, a cancellation or an app restart, a
/// `BmobFile` with the same name and content sends only the parts the storage does not have yet.
///
/// Thread safety: every mutable member is read and written only while `lock` is held, and no lock is held
/// across an `await`; that is what makes the `@unchecked Sendable` sound.
public final class BmobFile: @unchecked Sendable {
    private let lock = NSLock()
    /// The bytes to upload; `nil` for a file made from a URL.
    let content: FileContent?
    /// The MIME type sent with a small upload.
    let mimeType: String
    private var filenameValue: String
    private var urlValue: String?
    private var cdnValue: String?
    private var uploading = false
    private var contentHashValue: String?
    private var clientValue = BmobClient.shared
    private var observerValue: (@Sendable (MultipartEvent) -> Void)?

    /// A file of `data`, uploaded as `filename` with the MIME type `mimeType`.
    ///
    /// - Parameters:
    ///   - data: The file's bytes.
    ///   - filename: The name the server records; it needs a suffix (`photo.jpg`), which becomes the stored
    ///     file's extension.
    ///   - mimeType: The file's type, such as `image/jpeg`.
    public init(data: Data, filename: String, mimeType: String) {
        content = .data(data)
        self.mimeType = mimeType
        filenameValue = filename
    }

    /// A file of `data`, uploaded as `filename`, with the MIME type its extension suggests
    /// (`application/octet-stream` when unknown).
    public convenience init(data: Data, filename: String) {
        self.init(data: data, filename: filename, mimeType: Self.mimeType(for: filename))
    }

    /// The file at `filePath`, named by its last path component. Its bytes are read when it is uploaded; a
    /// large file is read one part at a time, never whole. Keep the file unchanged until the upload finishes.
    ///
    /// - Returns: `nil` when nothing is at `filePath` or it is a directory.
    public init?(filePath: String) {
        var isDirectory: ObjCBool = false
        guard !filePath.isEmpty, FileManager.default.fileExists(atPath: filePath, isDirectory: &isDirectory),
            !isDirectory.boolValue
        else { return nil }
        let url = URL(fileURLWithPath: filePath)
        content = .path(url)
        filenameValue = url.lastPathComponent
        mimeType = Self.mimeType(for: url.lastPathComponent)
    }

    /// A file that is already stored, named by the URL its upload returned: for ``delete()`` and
    /// ``fileDict(filename:)``. It cannot be uploaded.
    ///
    /// - Parameters:
    ///   - url: The file's URL; its path is the storage key.
    ///   - cdn: The provider name its upload returned (``cdn``), or `nil` when unknown.
    /// - Returns: `nil` when `url` is not a URL with a path.
    public init?(url: String, cdn: String?) {
        guard let key = FileLocation.key(ofURL: url) else { return nil }
        content = nil
        urlValue = url
        cdnValue = cdn
        let name = key.split(separator: "/").last.map(String.init) ?? key
        filenameValue = name
        mimeType = Self.mimeType(for: name)
    }

    /// The file's name: the one it was made with, then the one the server recorded.
    public var filename: String {
        get { lock.withLock { filenameValue } }
        set { lock.withLock { filenameValue = newValue } }
    }

    /// Where the file can be downloaded, once uploaded (or as given to ``init(url:cdn:)``).
    public var url: String? {
        lock.withLock { urlValue }
    }

    /// The storage provider's name the server answered (`local`, `s3`, …), once uploaded.
    public var cdn: String? {
        lock.withLock { cdnValue }
    }

    /// The file as a value of an object's field: Bmob's `{"__type":"File","group":…,"filename":…,"url":…}`.
    ///
    /// ```swift
    /// user["avatar"] = file.fileDict(filename: "avatar.jpg")
    /// ```
    ///
    /// - Parameter filename: The name the field records.
    /// - Returns: The value to assign; `url` and `group` are left out while unknown.
    public func fileDict(filename: String) -> [String: String] {
        let (url, cdn) = lock.withLock { (urlValue, cdnValue) }
        var value = ["__type": "File", "filename": filename]
        if let url { value["url"] = url }
        if let cdn, !cdn.isEmpty { value["group"] = cdn }
        return value
    }

    // MARK: - Package

    /// The client requests go through (``BmobCore/BmobClient/shared`` unless a test set another).
    package var client: BmobClient {
        get { lock.withLock { clientValue } }
        set { lock.withLock { clientValue = newValue } }
    }

    /// Called with each step of a multipart upload (for tests that count the parts sent).
    package var multipartObserver: (@Sendable (MultipartEvent) -> Void)? {
        get { lock.withLock { observerValue } }
        set { lock.withLock { observerValue = newValue } }
    }

    /// Marks an upload as running and returns what it needs.
    ///
    /// - Throws: ``BmobError/invalidParameter(reason:)`` for a file made from a URL, or while another upload of
    ///   this file runs.
    func beginUpload() throws(BmobError) -> UploadJob {
        lock.lock()
        defer { lock.unlock() }
        guard let content else {
            throw .invalidParameter(reason: "a BmobFile made from a URL has no bytes to upload")
        }
        guard !uploading else { throw .invalidParameter(reason: "this file is already being uploaded") }
        uploading = true
        return UploadJob(
            content: content, filename: filenameValue, mimeType: mimeType, client: clientValue,
            contentHash: contentHashValue, observer: observerValue)
    }

    /// Ends the upload ``beginUpload()`` started; `stored` is its result when it succeeded.
    func endUpload(stored: StoredFile?, contentHash: String?) {
        lock.withLock {
            uploading = false
            // Bytes given in memory cannot change, so their hash is kept for a retry; a path is hashed again.
            if case .data? = content, let contentHash { contentHashValue = contentHash }
            if let stored {
                urlValue = stored.url
                cdnValue = stored.cdn
                filenameValue = stored.filename
            }
        }
    }

    /// The MIME type for a file name's extension.
    static func mimeType(for filename: String) -> String {
        guard let dot = filename.lastIndex(of: "."), dot != filename.index(before: filename.endIndex) else {
            return FileContentType.forExtension("")
        }
        return FileContentType.forExtension(filename[filename.index(after: dot)...])
    }
}
