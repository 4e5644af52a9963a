#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A message from the sync door, told apart by searching its text for the markers the benchmark needs, without
/// a JSON parse (the server's member order is not part of the protocol, so nothing relies on it).
enum SyncPacket: Equatable {
    /// `Transition`; `updated` when it carries a `QueryUpdated`, `failed` when it carries a `QueryFailed`.
    case transition(updated: Bool, failed: Bool)
    /// `TransitionChunk`: part of a transition too large for one message (not expected with small results).
    case transitionChunk
    /// `MutationResponse`, successful or not.
    case mutationResponse(success: Bool)
    /// `Ping`, which needs no answer.
    case ping
    /// `FatalError`, `AuthError` or anything else the benchmark did not ask for, with its first bytes.
    case unexpected(String)

    /// Tells what `payload` is.
    ///
    /// - Parameter payload: a text frame's payload.
    /// - Returns: the packet.
    static func classify(_ payload: UnsafeRawBufferPointer) -> SyncPacket {
        if contains(#""type":"Transition""#, in: payload) {
            return .transition(
                updated: contains(#""QueryUpdated""#, in: payload), failed: contains(#""QueryFailed""#, in: payload))
        }
        if contains(#""type":"MutationResponse""#, in: payload) {
            return .mutationResponse(success: contains(#""success":true"#, in: payload))
        }
        if contains(#""type":"Ping""#, in: payload) { return .ping }
        if contains(#""type":"TransitionChunk""#, in: payload) { return .transitionChunk }
        return .unexpected(String(decoding: payload.prefix(300), as: UTF8.self))
    }

    /// Calls `body` with every non-negative integer that follows the JSON key `key` (`"key":123`) in `payload`:
    /// the benchmark's write numbers in a query result.
    ///
    /// - Parameters:
    ///   - key: a JSON key, without quotes.
    ///   - payload: a message's text.
    ///   - body: called once per occurrence, in order.
    static func forEachNumber(after key: StaticString, in payload: UnsafeRawBufferPointer, _ body: (Int) -> Void) {
        let needleCount = key.utf8CodeUnitCount + 3  // "key":
        var needle = [UInt8](repeating: UInt8(ascii: "\""), count: needleCount)
        for index in 0..<key.utf8CodeUnitCount { needle[index + 1] = key.utf8Start[index] }
        needle[needleCount - 1] = UInt8(ascii: ":")
        var from = 0
        while let at = find(needle, in: payload, from: from) {
            var index = at + needleCount
            var value = 0
            let start = index
            while index < payload.count, payload[index] >= 0x30, payload[index] <= 0x39, index - start < 18 {
                value = value * 10 + Int(payload[index] - 0x30)
                index += 1
            }
            if index > start { body(value) }
            from = index
        }
    }

    private static func contains(_ needle: StaticString, in payload: UnsafeRawBufferPointer) -> Bool {
        let bytes = Array(UnsafeRawBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount))
        return find(bytes, in: payload, from: 0) != nil
    }

    private static func find(_ needle: [UInt8], in haystack: UnsafeRawBufferPointer, from: Int) -> Int? {
        let count = needle.count
        guard count > 0, haystack.count - from >= count else { return nil }
        let first = needle[0]
        let last = haystack.count - count
        var index = from
        return needle.withUnsafeBytes { needleBytes in
            while index <= last {
                if haystack[index] == first
                    && memcmp(haystack.baseAddress! + index, needleBytes.baseAddress!, count) == 0
                {
                    return index
                }
                index += 1
            }
            return nil
        }
    }
}
