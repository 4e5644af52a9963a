import BmobCore
import BmobWire
import Foundation

/// The on-disk cache of query answers, under `BmobLocalStorage`'s `query-cache` folder: a folder per app, in
/// it a folder per user (the objectId the answer was fetched as, or anonymous), in it one file per request,
/// named by a hash of the request's canonical JSON, which the file also holds with the user to rule out
/// collisions. A write replaces the file atomically; an unreadable file counts as a miss.
///
/// An answer is filtered by the ACLs of the user who asked, so it is served to that user only: entries are keyed
/// by user, and the user facade clears an app's cache when its current user changes (``clear(appKey:)``,
/// ``clear(appKey:keepingUser:)``). A write is refused once the client's user has changed since the request
/// was made (``Owner/generation``), so an answer still in flight at a logout is not stored after it.
package enum BmobQueryCache {
    /// Whom an answer is cached for: the app and the user a request ran as, taken before it is sent.
    struct Owner: Sendable {
        var appKey: String
        /// The user's objectId, or `nil` for anonymous.
        var user: String?
        /// The client's user generation when the request was made; see ``BmobClient/user``.
        var generation: UInt64
        /// The client the request runs through.
        var client: BmobClient

        /// The app and the user `client` runs requests as now.
        init(client: BmobClient) {
            let user = client.user
            self.appKey = client.currentSession?.appKey ?? ""
            self.user = user.objectId
            self.generation = user.generation
            self.client = client
        }
    }

    /// Serialises writes and clears, so that a write checked against the client's current user cannot land
    /// after the clear that follows a change of user.
    private static let lock = NSLock()

    /// The cached answer to `request` for `owner`'s user, and its age, if any.
    static func read(_ owner: Owner, route: String, request: JSONValue) -> (answer: JSONValue, age: TimeInterval)? {
        let key = canonicalKey(user: owner.user, route: route, request: request)
        guard let url = try? fileURL(appKey: owner.appKey, user: owner.user, key: key),
            let data = try? Data(contentsOf: url),
            let stored = try? JSONParser.parse(data),
            stored["key"]?.stringValue == key,
            let savedAt = stored["savedAt"]?.doubleValue,
            let answer = stored["answer"]
        else { return nil }
        return (answer, Date().timeIntervalSince1970 - savedAt)
    }

    /// Stores `answer` for `request` and `owner`'s user, unless the client's user changed since `owner` was
    /// taken; failures only cost the cache.
    static func write(_ owner: Owner, route: String, request: JSONValue, answer: JSONValue) {
        let key = canonicalKey(user: owner.user, route: route, request: request)
        let stored: JSONValue = [
            "key": .string(key), "savedAt": .double(Date().timeIntervalSince1970), "answer": answer,
        ]
        var bytes: [UInt8] = []
        stored.appendJSON(to: &bytes)
        lock.withLock {
            guard owner.client.user.generation == owner.generation,
                let url = try? fileURL(appKey: owner.appKey, user: owner.user, key: key)
            else { return }
            try? Data(bytes).write(to: url, options: .atomic)
        }
    }

    /// Removes every cached answer of the app, whichever user it was fetched for: on login, signup and logout.
    ///
    /// - Parameter appKey: The app's Application ID.
    package static func clear(appKey: String) {
        lock.withLock {
            try? FileManager.default.removeItem(at: appDirectory(appKey))
        }
    }

    /// Removes the app's cached answers except those fetched as `user`: when a saved user is restored, the
    /// answers it cached before are still its own, and nobody else's may be served to it.
    ///
    /// - Parameters:
    ///   - appKey: The app's Application ID.
    ///   - user: The objectId of the user whose answers stay, or `nil` for the anonymous ones.
    package static func clear(appKey: String, keepingUser user: String?) {
        lock.withLock {
            let directory = appDirectory(appKey)
            let kept = userFolderName(user)
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            for entry in entries where entry != kept {
                try? FileManager.default.removeItem(at: directory.appendingPathComponent(entry))
            }
        }
    }

    private static func appDirectory(_ appKey: String) -> URL {
        BmobLocalStorage.root.appendingPathComponent("query-cache/\(hexHash(appKey))", isDirectory: true)
    }

    private static func fileURL(appKey: String, user: String?, key: String) throws -> URL {
        let directory = try BmobLocalStorage.directory("query-cache/\(hexHash(appKey))/\(userFolderName(user))")
        return directory.appendingPathComponent(hexHash(key) + ".json")
    }

    /// The folder of one user's answers: a hash of `user:<objectId>`, or of `anonymous`.
    private static func userFolderName(_ user: String?) -> String {
        hexHash(user.map { "user:\($0)" } ?? "anonymous")
    }

    /// The user, route and request as JSON with object members sorted, so equal requests give equal keys in
    /// every process (dictionary order is not stable across launches).
    static func canonicalKey(user: String?, route: String, request: JSONValue) -> String {
        var bytes: [UInt8] = []
        (user.map(JSONValue.string) ?? .null).appendJSON(to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        bytes += Array(route.utf8)
        bytes.append(UInt8(ascii: ":"))
        appendCanonical(request, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func appendCanonical(_ value: JSONValue, to bytes: inout [UInt8]) {
        switch value {
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                appendCanonical(element, to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                JSONValue.string(key).appendJSON(to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                appendCanonical(members[key] ?? .null, to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        default:
            value.appendJSON(to: &bytes)
        }
    }

    /// 64-bit FNV-1a as 16 hex digits.
    private static func hexHash(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
