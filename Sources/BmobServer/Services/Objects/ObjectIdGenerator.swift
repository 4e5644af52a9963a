import BmobIO
import BmobWire

/// Makes object ids the way Bmob's look: 10 lowercase hex characters (40 bits).
///
/// The default generator, ``ascending``, hands out ids that increase through a process's lifetime: it starts
/// at a random point and steps forward by a random stride of 1…4096. Every class table and the journal index
/// objects by id, and a B-tree takes increasing keys at its right edge, so a group of creates dirties a few
/// pages instead of one random page per object (this more than doubled create throughput against purely
/// random ids). The random stride keeps ids from being consecutive numbers; they are not secrets, though:
/// ACLs and class permissions, not unguessable ids, protect objects. After at least 268 million ids the value
/// wraps to the bottom of the range; the store's uniqueness check and the caller's retry settle any collision
/// with ids from earlier runs or other server nodes.
package struct ObjectIdGenerator: Sendable {
    private let next: @Sendable () -> String

    package init(next: @escaping @Sendable () -> String) {
        self.next = next
    }

    /// Increasing ids with random strides, starting at a random point of the 40-bit range.
    package static let ascending: ObjectIdGenerator = {
        let state = LockedValue(AscendingState())
        return ObjectIdGenerator { state.withLock { $0.next() } }
    }()

    /// Independent random ids from the system generator.
    package static let random = ObjectIdGenerator {
        var generator = SystemRandomNumberGenerator()
        return format(UInt64.random(in: 0..<idSpace, using: &generator))
    }

    package func make() -> String { next() }

    /// Values an id can take: 40 bits.
    package static let idSpace: UInt64 = 1 << 40

    /// `value` as 10 lowercase hex digits.
    package static func format(_ value: UInt64) -> String {
        // Ten ASCII bytes fit a small string: no allocation, no lookup table.
        String(unsafeUninitializedCapacity: 10) { buffer in
            var rest = value
            for index in stride(from: 9, through: 0, by: -1) {
                let digit = UInt8(truncatingIfNeeded: rest & 0xF)
                buffer[index] = digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10
                rest >>= 4
            }
            return 10
        }
    }

    /// The ``ascending`` generator's position.
    ///
    /// Strides come from a SplitMix64 sequence seeded once from the system generator: they only spread ids
    /// apart (ids are not secrets, see above), and a system call per id showed up in create's profile.
    package struct AscendingState: Sendable {
        private var value: UInt64
        private var strides: SplitMix64

        /// Starts in the lower half of the range, so most runs never wrap.
        package init() {
            var system = SystemRandomNumberGenerator()
            value = UInt64.random(in: 0..<(ObjectIdGenerator.idSpace / 2), using: &system)
            strides = SplitMix64(seed: system.next())
        }

        /// Starts at `value`; for tests of wrapping.
        package init(startingAt value: UInt64) {
            self.value = value % ObjectIdGenerator.idSpace
            var system = SystemRandomNumberGenerator()
            strides = SplitMix64(seed: system.next())
        }

        /// The next id.
        package mutating func next() -> String {
            value = (value &+ 1 &+ (strides.next() & 4095)) % ObjectIdGenerator.idSpace
            return ObjectIdGenerator.format(value)
        }
    }
}
