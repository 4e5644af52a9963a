/// What a selector reports for a descriptor, and what a registration asks for.
package struct SelectorEventSet: OptionSet, Sendable, Hashable {
    package var rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Bytes (or a connection, or end of stream) can be read.
    package static let readable = Self(rawValue: 1 << 0)
    /// The send buffer has room.
    package static let writable = Self(rawValue: 1 << 1)
    /// The peer hung up or the descriptor has an error; reading reports which.
    package static let hangup = Self(rawValue: 1 << 2)
}
