#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A reading of a process's resident memory and CPU time from `/proc` (Linux), taken between phases.
struct ProcessSample {
    /// `VmRSS` of `/proc/<pid>/status`, in KiB.
    var residentKiB: Int
    /// User plus system CPU time of all its threads, in seconds (`/proc/<pid>/stat` fields 14 and 15).
    var cpuSeconds: Double

    /// Reads the process now; `nil` when it is gone or `/proc` is unreadable.
    ///
    /// - Parameter pid: the process id.
    /// - Returns: the sample.
    static func current(pid: Int32) -> ProcessSample? {
        guard let status = readFile("/proc/\(pid)/status"), let stat = readFile("/proc/\(pid)/stat") else {
            return nil
        }
        guard let rssLine = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kib = Int(rssLine.split(separator: " ").dropFirst().first ?? "")
        else { return nil }
        // The command name may hold spaces and parentheses, so fields are counted after its last ')'.
        guard let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        return ProcessSample(residentKiB: kib, cpuSeconds: (user + system) / ticks)
    }

    /// This process's own CPU time so far, in seconds.
    static func ownCPUSeconds() -> Double {
        var usage = rusage()
        #if os(Linux)
            getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        #else
            getrusage(RUSAGE_SELF, &usage)
        #endif
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    private static func readFile(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
