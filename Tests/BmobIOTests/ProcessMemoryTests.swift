import BmobIO
import Testing

@Suite struct ProcessMemoryTests {
    @Test func readsTheResidentSetAndTheAllocatorsShares() {
        let memory = ProcessMemory.current()
        #expect(memory.residentBytes > 1_048_576)
        #if canImport(Glibc)
        #expect(memory.mallocInUseBytes > 0)
        #endif
    }
}
