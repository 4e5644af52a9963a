import BmobIO

/// Gives the C allocator's free pages back to the kernel once a minute while the server runs.
///
/// glibc keeps freed memory in the arena of the thread that used it; with requests, SQLite connections and
/// scrypt hashes spread over many threads, the freed-but-kept share of the resident set grows slowly for hours
/// (a 10-minute soak showed it going from 1.2 to 2.7 MiB) although nothing leaks. Trimming takes each arena's
/// lock for a moment, once a minute.
enum FreeMemoryTrimmer {
    /// Seconds between trims.
    static let intervalSeconds: UInt64 = 60

    /// Trims every ``intervalSeconds`` until the task is cancelled.
    static func run() async {
        while !Task.isCancelled {
            do {
                try await Task.sleep(nanoseconds: intervalSeconds * 1_000_000_000)
            } catch {
                return
            }
            ProcessMemory.releaseFreeMemory()
        }
    }
}
