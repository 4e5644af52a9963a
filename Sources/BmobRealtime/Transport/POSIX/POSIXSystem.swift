#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

#if canImport(Glibc) || canImport(Musl) || canImport(Android)
/// The few POSIX calls of the Linux WebSocket client, with `EINTR` retried in one place.
enum POSIXSystem {
    /// The current `errno`.
    static var errorNumber: Int32 { errno }

    /// The system's text for an `errno` value.
    static func describe(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    /// Makes `descriptor` non-blocking and close-on-exec.
    static func makeNonBlocking(_ descriptor: Int32) -> Bool {
        let flags = fcntl(descriptor, F_GETFL)
        guard flags >= 0, fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) == 0 else { return false }
        let descriptorFlags = fcntl(descriptor, F_GETFD)
        return descriptorFlags >= 0 && fcntl(descriptor, F_SETFD, descriptorFlags | FD_CLOEXEC) == 0
    }

    /// `poll(2)`, retried on `EINTR`: the number of ready descriptors, 0 on timeout, -1 on error.
    ///
    /// - Parameters:
    ///   - descriptors: the descriptors and their interests; `revents` is filled in.
    ///   - timeout: milliseconds to wait, or -1 for no limit.
    static func poll(_ descriptors: inout [pollfd], timeout: Int32) -> Int32 {
        while true {
            let result = descriptors.withUnsafeMutableBufferPointer { buffer in
                #if canImport(Glibc)
                Glibc.poll(buffer.baseAddress, nfds_t(buffer.count), timeout)
                #elseif canImport(Musl)
                Musl.poll(buffer.baseAddress, nfds_t(buffer.count), timeout)
                #else
                Android.poll(buffer.baseAddress, nfds_t(buffer.count), timeout)
                #endif
            }
            if result < 0 && errno == EINTR { continue }
            return result
        }
    }

    /// Milliseconds from now until `deadline`, rounded up, at least 0; -1 when there is no deadline.
    static func milliseconds(until deadline: ContinuousClock.Instant?) -> Int32 {
        guard let deadline else { return -1 }
        let remaining = ContinuousClock.now.duration(to: deadline)
        if remaining <= .zero { return 0 }
        let (seconds, attoseconds) = remaining.components
        let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: milliseconds)
    }
}
#endif
