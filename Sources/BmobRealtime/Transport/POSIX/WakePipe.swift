#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

#if canImport(Glibc) || canImport(Musl) || canImport(Android)
/// A non-blocking pipe that wakes the I/O thread out of `poll`: any thread calls ``wake()``, the I/O
/// thread polls ``readDescriptor`` and calls ``drain()``.
///
/// Invariant for `@unchecked Sendable`: the descriptors are immutable after `init` and closed only in
/// `deinit`, when no thread holds the pipe any more; `write(2)` and `read(2)` on a pipe are thread-safe.
final class WakePipe: @unchecked Sendable {
    /// The end the I/O thread polls.
    let readDescriptor: Int32
    private let writeDescriptor: Int32

    /// A new pipe, or `nil` when the process is out of descriptors.
    init?() {
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else { return nil }
        guard POSIXSystem.makeNonBlocking(descriptors[0]), POSIXSystem.makeNonBlocking(descriptors[1]) else {
            close(descriptors[0])
            close(descriptors[1])
            return nil
        }
        readDescriptor = descriptors[0]
        writeDescriptor = descriptors[1]
    }

    deinit {
        close(readDescriptor)
        close(writeDescriptor)
    }

    /// Makes the read end readable; a full pipe is already readable, so `EAGAIN` is fine.
    func wake() {
        var byte: UInt8 = 1
        while write(writeDescriptor, &byte, 1) < 0 && errno == EINTR {}
    }

    /// Empties the pipe after a wake-up.
    func drain() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(readDescriptor, $0.baseAddress, $0.count) }
            if count > 0 { continue }
            if count < 0 && errno == EINTR { continue }
            return
        }
    }
}
#endif
