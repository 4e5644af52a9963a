import CSystemShims

/// Interrupts a selector's wait from another thread by making a descriptor readable.
///
/// Backed by an eventfd (epoll) or the write end of a pipe (poll). Writing to a descriptor is thread-safe,
/// which is what makes this type `Sendable`.
package final class SelectorWaker: Sendable {
    private let writeFD: Int32
    private let isEventFD: Bool

    init(writeFD: Int32, isEventFD: Bool) {
        self.writeFD = writeFD
        self.isEventFD = isEventFD
    }

    /// Makes the selector's wait return. Extra wakes coalesce; a full pipe already means "wake".
    package func wake() {
        if isEventFD {
            var one: UInt64 = 1
            _ = withUnsafeBytes(of: &one) { try? Posix.write(writeFD, $0) }
        } else {
            var byte: UInt8 = 0
            _ = withUnsafeBytes(of: &byte) { try? Posix.write(writeFD, $0) }
        }
    }
}
