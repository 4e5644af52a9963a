/// Encoded frames (bytes ready to write to a socket) join by concatenation: one write carries them all.
extension Array: RealtimePayload where Element == UInt8 {
    /// The bytes of `payloads` one after the other.
    package static func joined(_ payloads: ArraySlice<[UInt8]>) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(payloads.reduce(0) { $0 + $1.count })
        for payload in payloads { bytes.append(contentsOf: payload) }
        return bytes
    }
}
