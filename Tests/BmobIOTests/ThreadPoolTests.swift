import Testing

@testable import BmobIO

@Suite struct ThreadPoolTests {
    @Test func runsWorkOffTheCallerAndReturnsResults() async throws {
        let pool = ThreadPool(threadCount: 3, name: "test-pool")
        defer { pool.shutdown() }
        let results = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
            for value in 0..<50 {
                group.addTask { (value, try await pool.run { index in precondition(index < 3); return value * 2 }) }
            }
            var results: [Int: Int] = [:]
            for try await (value, doubled) in group { results[value] = doubled }
            return results
        }
        #expect(results.count == 50)
        #expect(results.allSatisfy { $0.value == $0.key * 2 })
    }

    @Test func errorsReachTheCaller() async {
        struct Failure: Error {}
        let pool = ThreadPool(threadCount: 1, name: "test-pool")
        defer { pool.shutdown() }
        await #expect(throws: Failure.self) {
            try await pool.run { _ in throw Failure() }
        }
    }

    @Test func singleThreadPoolIsSerial() async throws {
        let pool = ThreadPool(threadCount: 1, name: "serial")
        defer { pool.shutdown() }
        let lock = Lock()
        nonisolated(unsafe) var order: [Int] = []
        for value in 0..<20 {
            pool.submit { _ in lock.withLock { order.append(value) } }
        }
        _ = try await pool.run { _ in 0 }
        #expect(lock.withLock { order } == Array(0..<20))
    }

    @Test func shutdownFinishesQueuedWork() {
        let pool = ThreadPool(threadCount: 2, name: "drain")
        let lock = Lock()
        nonisolated(unsafe) var count = 0
        for _ in 0..<100 {
            pool.submit { _ in lock.withLock { count += 1 } }
        }
        pool.shutdown()
        #expect(lock.withLock { count } == 100)
    }
}
