import Synchronization

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
        let state = Mutex(AscendingState())
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
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        return String(unsafeUninitializedCapacity: 10) { buffer in
            var rest = value
            for index in stride(from: 9, through: 0, by: -1) {
                buffer[index] = digits[Int(rest & 0xF)]
                rest >>= 4
            }
            return 10
        }
    }

    /// The ``ascending`` generator's position.
    package struct AscendingState: Sendable {
        private var value: UInt64
        private var generator = SystemRandomNumberGenerator()

        /// Starts in the lower half of the range, so most runs never wrap.
        package init() {
            value = UInt64.random(in: 0..<(ObjectIdGenerator.idSpace / 2), using: &generator)
        }

        /// Starts at `value`; for tests of wrapping.
        package init(startingAt value: UInt64) {
            self.value = value % ObjectIdGenerator.idSpace
        }

        /// The next id.
        package mutating func next() -> String {
            value = (value &+ UInt64.random(in: 1...4096, using: &generator)) % ObjectIdGenerator.idSpace
            return ObjectIdGenerator.format(value)
        }
    }
}
