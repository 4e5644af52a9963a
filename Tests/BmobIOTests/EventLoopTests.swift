import Testing

#if canImport(Glibc)
import Glibc
#endif

@testable import BmobIO

@Suite struct EventLoopTests {
    static let kinds: [SelectorKind] = [.epoll, .poll]

    private func withLoop<T>(_ kind: SelectorKind, _ body: (EventLoop) async throws -> T) async throws -> T {
        let loop = try EventLoop(selectorKind: kind)
        loop.start()
        defer { loop.stop() }
        return try await body(loop)
    }

    @Test(arguments: kinds)
    func executeRunsOnTheLoopThreadInOrder(kind: SelectorKind) async throws {
        try await withLoop(kind) { loop in
            #expect(!loop.inEventLoop)
            let order = Lock()
            nonisolated(unsafe) var seen: [Int] = []
            for index in 0..<100 {
                loop.execute {
                    precondition(loop.inEventLoop)
                    order.withLock { seen.append(index) }
                }
            }
            let onLoop = try await loop.submit { loop.inEventLoop }
            #expect(onLoop)
            #expect(order.withLock { seen } == Array(0..<100))
        }
    }

    @Test(arguments: kinds)
    func batchedWakeupsHoldAnIdleLoopUntilTheBatchEndsThenRunEverything(kind: SelectorKind) async throws {
        try await withLoop(kind) { loop in
            // One round trip, after which the loop has taken its queue and waits for a wake-up.
            _ = try await loop.submit { () }
            let (ran, ranContinuation) = AsyncStream<Int>.makeStream()
            let counter = Lock()
            nonisolated(unsafe) var runCount = 0
            nonisolated(unsafe) var runBeforeBatchEnded = -1
            // A plain thread, as the SQLite writer is: the batch belongs to the thread that opens it.
            let thread = Thread.spawn(name: "test-wake-batch") {
                EventLoop.batchingWakeups {
                    EventLoop.batchingWakeups {  // nested: the outer batch does the waking
                        for index in 0..<50 {
                            loop.execute {
                                counter.withLock { runCount += 1 }
                                ranContinuation.yield(index)
                            }
                        }
                    }
                    // Nothing else can wake the idle loop, so none of the work may have run yet.
                    usleep(20_000)
                    runBeforeBatchEnded = counter.withLock { runCount }
                }
            }
            var order: [Int] = []
            for await index in ran {
                order.append(index)
                if order.count == 50 { break }
            }
            thread.join()
            #expect(order == Array(0..<50))
            #expect(runBeforeBatchEnded == 0)
        }
    }

    @Test(arguments: kinds)
    func tasksPreferringTheLoopRunOnItAcrossSuspensions(kind: SelectorKind) async throws {
        try await withLoop(kind) { loop in
            let results = try await withThrowingTaskGroup(of: [Bool].self) { group in
                for _ in 0..<20 {
                    group.addTask(executorPreference: loop) {
                        var checks = [loop.inEventLoop]
                        await Task.yield()
                        checks.append(loop.inEventLoop)
                        try await Task.sleep(for: .milliseconds(5))
                        checks.append(loop.inEventLoop)
                        return checks
                    }
                }
                var all: [Bool] = []
                for try await checks in group { all += checks }
                return all
            }
            #expect(results.count == 60)
            #expect(results.allSatisfy { $0 })
        }
    }

    @Test(arguments: kinds)
    func timersFireInDeadlineOrderAndCancelledOnesDoNot(kind: SelectorKind) async throws {
        try await withLoop(kind) { loop in
            let lock = Lock()
            nonisolated(unsafe) var fired: [String] = []
            try await loop.submit {
                loop.scheduleTimer(afterNanoseconds: 30_000_000) { lock.withLock { fired.append("c") } }
                loop.scheduleTimer(afterNanoseconds: 10_000_000) { lock.withLock { fired.append("a") } }
                let cancelled = loop.scheduleTimer(afterNanoseconds: 15_000_000) { lock.withLock { fired.append("x") } }
                loop.scheduleTimer(afterNanoseconds: 20_000_000) { lock.withLock { fired.append("b") } }
                loop.cancelTimer(cancelled)
            }
            try await Task.sleep(for: .milliseconds(150))
            #expect(lock.withLock { fired } == ["a", "b", "c"])
        }
    }

    @Test func timerDoesNotFireEarly() async throws {
        try await withLoop(.platformDefault) { loop in
            let scheduled = Posix.monotonicNanoseconds()
            let firedAt: UInt64 = try await withCheckedThrowingContinuation { continuation in
                loop.execute {
                    loop.scheduleTimer(afterNanoseconds: 25_000_000) {
                        continuation.resume(returning: Posix.monotonicNanoseconds())
                    }
                }
            }
            #expect(firedAt - scheduled >= 25_000_000)
        }
    }

    @Test func groupSpreadsWorkOverEveryLoop() throws {
        let group = try EventLoopGroup(loopCount: 3)
        defer { group.shutdown() }
        let picked = Set((0..<9).map { _ in ObjectIdentifier(group.next()) })
        #expect(picked.count == 3)
    }

    @Test func timerHeapOrdersAndSkipsCancelled() {
        var heap = TimerHeap()
        var fired: [Int] = []
        var ids: [UInt64] = []
        for (deadline, value) in [(50, 5), (10, 1), (30, 3), (20, 2), (40, 4)] {
            ids.append(heap.schedule(deadline: UInt64(deadline)) { fired.append(value) })
        }
        heap.cancel(ids[2])
        #expect(heap.nextDeadline() == 10)
        for callback in heap.popExpired(now: 45) { callback() }
        #expect(fired == [1, 2, 4])
        #expect(heap.nextDeadline() == 50)
        for callback in heap.popExpired(now: 100) { callback() }
        #expect(fired == [1, 2, 4, 5])
        #expect(heap.isEmpty)
    }
}
