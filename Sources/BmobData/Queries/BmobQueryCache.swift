import BmobCore
import BmobWire
import Foundation

/// The on-disk cache of query answers: one file per app and request under `BmobLocalStorage`'s
/// `query-cache` folder, named by a hash of the request's canonical JSON, which the file also holds to rule
/// out collisions. A write replaces the file atomically; an unreadable file counts as a miss.
enum BmobQueryCache {
    /// The cached answer to `request` and when it was stored, if any.
    static func read(appKey: String, route: String, request: JSONValue) -> (answer: JSONValue, age: TimeInterval)? {
        let key = canonicalKey(route: route, request: request)
        guard let url = try? fileURL(appKey: appKey, key: key),
            let data = try? Data(contentsOf: url),
            let stored = try? JSONParser.parse(data),
            stored["key"]?.stringValue == key,
            let savedAt = stored["savedAt"]?.doubleValue,
            let answer = stored["answer"]
        else { return nil }
        return (answer, Date().timeIntervalSince1970 - savedAt)
    }

    /// Stores `answer` for `request`; failures only cost the cache.
    static func write(appKey: String, route: String, request: JSONValue, answer: JSONValue) {
        let key = canonicalKey(route: route, request: request)
        guard let url = try? fileURL(appKey: appKey, key: key) else { return }
        let stored: JSONValue = [
            "key": .string(key), "savedAt": .double(Date().timeIntervalSince1970), "answer": answer,
        ]
        var bytes: [UInt8] = []
        stored.appendJSON(to: &bytes)
        try? Data(bytes).write(to: url, options: .atomic)
    }

    /// Removes every cached answer of the app.
    static func clear(appKey: String) {
        guard let directory = try? BmobLocalStorage.directory("query-cache/\(folderName(appKey))") else { return }
        try? FileManager.default.removeItem(at: directory)
    }

    private static func fileURL(appKey: String, key: String) throws -> URL {
        let directory = try BmobLocalStorage.directory("query-cache/\(folderName(appKey))")
        return directory.appendingPathComponent(hexHash(key) + ".json")
    }

    private static func folderName(_ appKey: String) -> String {
        hexHash(appKey)
    }

    /// The route and request as JSON with object members sorted, so equal requests give equal keys in every
    /// process (dictionary order is not stable across launches).
    static func canonicalKey(route: String, request: JSONValue) -> String {
        var bytes = Array(route.utf8)
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
