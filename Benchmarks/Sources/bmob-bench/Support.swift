// Helpers every subcommand uses: failing with a message, the two clocks and durations, the open-file limit.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Prints `bmob-bench: message` to standard error and exits with status 2.
func fail(_ message: String) -> Never {
    let line = "bmob-bench: \(message)\n"
    _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
    exit(2)
}

/// Nanoseconds on the monotonic clock.
func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

/// Milliseconds since the Unix epoch.
func wallMilliseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
}

/// Raises the open-file limit to the hard limit; fails early when even that is too low.
func raiseDescriptorLimit(needed: Int) {
    var limit = rlimit()
    #if os(Linux)
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
        let resource = RLIMIT_NOFILE
    #endif
    guard getrlimit(resource, &limit) == 0 else { fail("getrlimit failed") }
    limit.rlim_cur = limit.rlim_max
    _ = setrlimit(resource, &limit)
    guard getrlimit(resource, &limit) == 0, limit.rlim_cur >= rlim_t(needed) else {
        fail("the open-file limit (\(limit.rlim_cur)) is below the \(needed) descriptors needed; raise ulimit -n")
    }
}

/// `seconds` (negative counts as 0) in nanoseconds.
func nanoseconds(_ seconds: Double) -> UInt64 { UInt64(max(0, seconds) * 1e9) }

/// Seconds on the monotonic clock since `start` (monotonic nanoseconds).
func seconds(since start: UInt64) -> Double { Double(monotonicNanoseconds() - start) / 1e9 }
