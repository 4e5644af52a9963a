import CSystemShims

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's memory as the kernel and the C allocator count it, for `/metrics`: what a growing resident set
/// is made of.
package struct ProcessMemory: Sendable, Equatable {
    /// Resident pages of the process, in bytes (`/proc/self/statm`); 0 where there is no such file.
    package var residentBytes: Int
    /// Bytes the C allocator has handed out from its arenas and not had back.
    package var mallocInUseBytes: Int
    /// Bytes of large allocations mapped on their own (resident only where touched, unmapped when freed).
    package var mallocMappedBytes: Int
    /// Bytes freed but kept by the allocator for reuse: resident until trimmed, not a leak.
    package var mallocFreeKeptBytes: Int

    /// Reads the three now.
    package static func current() -> ProcessMemory {
        var inUse = 0
        var mapped = 0
        var freeKept = 0
        CSystemShims_malloc_totals(&inUse, &mapped, &freeKept)
        return ProcessMemory(
            residentBytes: residentBytes(), mallocInUseBytes: inUse, mallocMappedBytes: mapped, mallocFreeKeptBytes: freeKept)
    }

    /// The second field of `/proc/self/statm` (resident pages) times the page size.
    private static func residentBytes() -> Int {
        let descriptor = open("/proc/self/statm", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return 0 }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return 0 }
        let fields = buffer[..<count].split(separator: UInt8(ascii: " "))
        guard fields.count > 1, let pages = Int(String(decoding: fields[1], as: UTF8.self)) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
