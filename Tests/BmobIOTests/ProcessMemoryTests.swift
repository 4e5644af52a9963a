import BmobIO
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite struct ProcessMemoryTests {
    @Test func readsTheResidentSetAndTheAllocatorsShares() {
        let memory = ProcessMemory.current()
        #expect(memory.residentBytes > 1_048_576)
        #if canImport(Glibc)
        #expect(memory.mallocInUseBytes > 0)
        #endif
    }

    #if canImport(Glibc)
    /// Freed blocks between live ones stay resident in the arena until trimmed; trimming gives their pages back.
    @Test func releasingFreeMemoryShrinksTheResidentSet() {
        var blocks: [UnsafeMutableRawPointer] = []
        for _ in 0..<40_000 {
            guard let block = malloc(2_048) else { break }
            memset(block, 1, 2_048)  // touch it, so that it is resident
            blocks.append(block)
        }
        // Keep every 64th block: the arena cannot shrink from its top, only give back the pages between.
        for (index, block) in blocks.enumerated() where index % 64 != 0 { free(block) }
        let before = ProcessMemory.current()
        #expect(before.mallocFreeKeptBytes > 40_000_000, "the freed blocks are kept by the allocator")
        ProcessMemory.releaseFreeMemory()
        let after = ProcessMemory.current()
        #expect(after.residentBytes + 20_000_000 < before.residentBytes, "before \(before), after \(after)")
        for (index, block) in blocks.enumerated() where index % 64 == 0 { free(block) }
    }
    #endif
}
