/// Makes object ids the way Bmob's look: 10 lowercase hex characters (40 random bits).
package struct ObjectIdGenerator: Sendable {
    private let next: @Sendable () -> String

    package init(next: @escaping @Sendable () -> String) {
        self.next = next
    }

    /// Random ids from the system generator.
    package static let random = ObjectIdGenerator {
        var generator = SystemRandomNumberGenerator()
        let value = UInt64.random(in: 0..<(1 << 40), using: &generator)
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 10 - hex.count) + hex
    }

    package func make() -> String { next() }
}
