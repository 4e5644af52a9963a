/// The four-byte key a client masks its frame payloads with (RFC 6455 §5.3).
package struct WebSocketMaskingKey: Sendable, Hashable {
    /// The key's bytes in wire order.
    package let bytes: [UInt8]

    /// A key from four bytes in wire order.
    ///
    /// - Parameter bytes: exactly four bytes; anything else is a programmer error.
    package init(_ bytes: [UInt8]) {
        precondition(bytes.count == 4, "a WebSocket masking key has four bytes")
        self.bytes = bytes
    }

    /// A fresh key from `generator`; clients call this for every frame they send.
    ///
    /// - Parameter generator: the source of randomness, passed in so tests can be deterministic.
    /// - Returns: a key with four random bytes.
    package static func random(using generator: inout some RandomNumberGenerator) -> Self {
        let value = UInt32.random(in: .min ... .max, using: &generator)
        return Self([UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)])
    }

    /// XORs `payload` with the key, starting at key position `offset`; masking and unmasking are the same.
    ///
    /// - Parameters:
    ///   - payload: the bytes to transform in place.
    ///   - offset: how many payload bytes came before `payload` in the same frame.
    package func apply(to payload: inout [UInt8], offset: Int = 0) {
        let key = (bytes[0], bytes[1], bytes[2], bytes[3])
        payload.withUnsafeMutableBufferPointer { buffer in
            for index in buffer.indices {
                switch (index + offset) & 3 {
                case 0: buffer[index] ^= key.0
                case 1: buffer[index] ^= key.1
                case 2: buffer[index] ^= key.2
                default: buffer[index] ^= key.3
                }
            }
        }
    }
}
