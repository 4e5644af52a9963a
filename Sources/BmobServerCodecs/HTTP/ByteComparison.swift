import BmobWire

/// Equality of two byte runs, eight bytes at a time: for the HTTP hot paths that match request bytes against
/// known text (header lines of the previous request, route segments, common header names).
package enum ByteComparison {
    /// Whether `left` and `right` hold the same bytes.
    package static func equal(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Bool {
        guard left.count == right.count else { return false }
        guard let leftBase = left.baseAddress, let rightBase = right.baseAddress else { return true }  // both empty
        let leftRaw = UnsafeRawPointer(leftBase)
        let rightRaw = UnsafeRawPointer(rightBase)
        var index = 0
        while index + 8 <= left.count {
            if leftRaw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                != rightRaw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            {
                return false
            }
            index += 8
        }
        while index < left.count {
            if left[index] != right[index] { return false }
            index += 1
        }
        return true
    }
}
