import BmobCore
import BmobCrypto
import BmobWire
import Foundation

/// The native file routes, through one ``BmobCore/BmobClient``. Each request's own members travel as the
/// envelope's `data`, as Bmob's native SDKs send them (so `/8/savecdnupload`'s upload `sessionToken` does not
/// collide with the user's).
struct FileRoutes: Sendable {
    /// The client the calls go through.
    let client: BmobClient

    /// Calls `route` with `members` as `data` and returns the answer's `data`.
    private func call(_ route: String, _ members: [String: JSONValue]) async throws(BmobError) -> JSONValue {
        try await client.call(route, ["data": .object(members)])
    }

    /// `/8/cdn`: the threshold and, for a large file, a multipart target. `resume` is an earlier upload's
    /// session token, which asks for fresh credentials for that upload's key.
    func grant(filename: String, size: Int64, resume: String? = nil) async throws(BmobError) -> CDNGrant {
        var members: [String: JSONValue] = ["filename": .string(filename), "size": .int(size)]
        if let resume { members["resume"] = .string(resume) }
        return try CDNGrant(json: try await call("cdn", members))
    }

    /// `/8/files`: stores a small file sent whole as base64.
    func store(filename: String, mimeType: String, content: Data) async throws(BmobError) -> StoredFile {
        let members: [String: JSONValue] = [
            "filename": .string(filename), "mimeType": .string(mimeType),
            "content": .string(Base64.encodeString(content)),
        ]
        return try StoredFile(json: try await call("files", members), sentFilename: filename)
    }

    /// `/8/savecdnupload`: registers a completed multipart upload.
    func register(
        key: String, filename: String, size: Int64, cdn: String, sessionToken: String
    ) async throws(BmobError) -> StoredFile {
        let members: [String: JSONValue] = [
            "key": .string(key), "filename": .string(filename), "filesize": .int(size), "cdn": .string(cdn),
            "sessionToken": .string(sessionToken),
        ]
        return try StoredFile(json: try await call("savecdnupload", members), sentFilename: filename)
    }

    /// `/8/delcdnupload`: deletes one file by its key.
    func delete(key: String, cdn: String) async throws(BmobError) {
        _ = try await call("delcdnupload", ["filename": .string(key), "cdn": .string(cdn)])
    }

    /// `/8/delcdnbatch`: deletes files by key, grouped by provider name.
    func delete(keysByCDN: [String: [String]]) async throws(BmobError) {
        _ = try await call("delcdnbatch", keysByCDN.mapValues { .array($0.map(JSONValue.string)) })
    }
}
