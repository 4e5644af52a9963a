import BmobCrypto
import Synchronization

/// Makes request ids for requests that bring none: 16 hex digits, unique within the process, and unrelated to one
/// another to an observer (a counter passed through a keyed bijection), so they reveal neither order nor volume.
/// No system call per id, unlike a fresh random number each time.
package final class RequestIdGenerator: Sendable {
    private let key: UInt64
    private let counter = Atomic<UInt64>(0)

    package init() {
        key = SecureRandom.bytes(8).reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// The next id.
    package func next() -> String {
        let n = counter.wrappingAdd(1, ordering: .relaxed).newValue
        // splitmix64's finalizer: a bijection of 64-bit values, so distinct counters give distinct ids.
        var x = n &+ key
        x = (x ^ (x >> 30)) &* 0xBF58_476D_1CE4_E5B9
        x = (x ^ (x >> 27)) &* 0x94D0_49BB_1331_11EB
        x ^= x >> 31
        return Self.hex(x)
    }

    private static let digits = Array("0123456789abcdef".utf8)

    static func hex(_ value: UInt64) -> String {
        String(unsafeUninitializedCapacity: 16) { buffer in
            for index in 0..<16 {
                buffer[index] = digits[Int((value >> (60 - 4 * UInt64(index))) & 0xF)]
            }
            return 16
        }
    }
}
