package import BmobCore
import Foundation

extension BmobFile {
    /// The provider name sent with a delete when the file's ``cdn`` is unknown (Bmob's default; the server
    /// accepts any name).
    static let defaultCDN = "upyun"

    /// Deletes the stored file (`/8/delcdnupload`).
    ///
    /// ```swift
    /// let file = BmobFile(url: uploadedURL, cdn: "aliyun")
    /// try await file?.delete()
    /// ```
    ///
    /// - Throws: ``BmobError/invalidParameter(reason:)`` when the file has no URL (it was not uploaded);
    ///   ``BmobError/serverError(code:message:)`` 151 when the app has no such file, 153 when it belongs to
    ///   another user.
    public func delete() async throws {
        let (url, cdn, client) = (self.url, self.cdn, self.client)
        guard let url, let key = FileLocation.key(ofURL: url) else {
            throw BmobError.invalidParameter(reason: "the file has no URL: upload it first")
        }
        let name = cdn.flatMap { $0.isEmpty ? nil : $0 } ?? Self.defaultCDN
        try await FileRoutes(client: client).delete(key: key, cdn: name)
    }

    /// Deletes stored files by the URLs their uploads returned, in one request (`/8/delcdnbatch`).
    ///
    /// ```swift
    /// try await BmobFile.deleteBatch(urls: uploaded.compactMap { $0.url })
    /// ```
    ///
    /// - Throws: ``BmobError/invalidParameter(reason:)`` for a URL without a path;
    ///   ``BmobError/serverError(code:message:)`` 154 naming the files that could not be deleted (the others
    ///   are deleted).
    public static func deleteBatch(urls: [String]) async throws {
        try await deleteBatch(urls: urls, client: .shared)
    }

    /// ``deleteBatch(urls:)`` through `client`.
    package static func deleteBatch(urls: [String], client: BmobClient) async throws {
        guard !urls.isEmpty else { return }
        var keys: [String] = []
        for url in urls {
            guard let key = FileLocation.key(ofURL: url) else {
                throw BmobError.invalidParameter(reason: "\(url) is not a file URL")
            }
            keys.append(key)
        }
        try await FileRoutes(client: client).delete(keysByCDN: [defaultCDN: keys])
    }
}
