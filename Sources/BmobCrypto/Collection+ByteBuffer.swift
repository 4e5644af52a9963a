extension Collection where Element == UInt8 {
    /// Calls `body` with the collection's bytes in contiguous memory, copying them only when the collection
    /// does not already store them that way.
    ///
    /// The buffer's `baseAddress` is never `nil`, even for an empty collection, so C functions that reject a
    /// null pointer with a zero length can be handed `buffer.baseAddress!` directly.
    func withByteBuffer<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        if isEmpty {
            // An empty array may have no storage; a slice of a one-byte array has an address and no bytes.
            return try [0].withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[0..<0])) }
        }
        if let result = try withContiguousStorageIfAvailable(body) {
            return result
        }
        return try Array(self).withUnsafeBufferPointer(body)
    }
}
