import Testing

#if canImport(Glibc)
import Glibc
#endif

@testable import BmobIO

@Suite struct EventLoopTests {
    static let kinds: [SelectorKind] = [.epoll, .poll]

    private func withLoop<T>(
        _ kind: SelectorKind, clock: EventLoopClock = .system, _ body: (EventLoop) async throws -> T
    ) async throws -> T {
        let loop = try EventLoop(selectorKind: kind, clock: clock)
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
    func workSubmittedWhileAndAfterTheLoopStopsNeverWritesToAClosedWaker(kind: SelectorKind) async throws {
        // Threads that hand a loop work as it stops (a store's worker answering a connection of a server that is
        // shutting down) must neither crash on the closed wake descriptor nor write to a descriptor the kernel
        // gave out again. Each stop races four threads submitting work; afterwards nothing runs.
        for _ in 0..<50 {
            let loop = try EventLoop(selectorKind: kind, clock: .system)
            loop.start()
            let ran = Lock()
            nonisolated(unsafe) var count = 0
            let threads = (0..<4).map { _ in
                Thread.spawn(name: "submitter") {
                    for _ in 0..<200 { loop.execute { ran.withLock { count += 1 } } }
                }
            }
            loop.stop()
            for thread in threads { thread.join() }
            let after = ran.withLock { count }
            loop.execute { ran.withLock { count += 1 } }
            EventLoop.batchingWakeups { loop.execute { ran.withLock { count += 1 } } }
            #expect(ran.withLock { count } == after, "work after the loop exited does not run")
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
        let clock = ManualClock()
        try await withLoop(kind, clock: .manual(clock)) { loop in
            let lock = Lock()
            nonisolated(unsafe) var fired: [String] = []
            try await loop.submit {
                loop.scheduleTimer(afterNanoseconds: 30_000_000) { lock.withLock { fired.append("c") } }
                loop.scheduleTimer(afterNanoseconds: 10_000_000) { lock.withLock { fired.append("a") } }
                let cancelled = loop.scheduleTimer(afterNanoseconds: 15_000_000) { lock.withLock { fired.append("x") } }
                loop.scheduleTimer(afterNanoseconds: 20_000_000) { lock.withLock { fired.append("b") } }
                loop.cancelTimer(cancelled)
            }
            await clock.advance(by: .milliseconds(150))
            #expect(lock.withLock { fired } == ["a", "b", "c"])
        }
    }

    @Test(arguments: kinds)
    func aManualClocksTimersFireWhenItIsAdvancedAndNotBefore(kind: SelectorKind) async throws {
        let clock = ManualClock()
        try await withLoop(kind, clock: .manual(clock)) { loop in
            let lock = Lock()
            nonisolated(unsafe) var fired: [UInt64] = []
            let start = try await loop.submit {
                loop.scheduleTimer(afterNanoseconds: 25_000_000) { lock.withLock { fired.append(loop.now) } }
                // One that comes due as the first fires, for the same advance.
                loop.scheduleTimer(afterNanoseconds: 10_000_000) {
                    loop.scheduleTimer(afterNanoseconds: 0) { lock.withLock { fired.append(0) } }
                }
                return loop.now
            }
            #expect(start == clock.now)
            await clock.advance(by: .milliseconds(24))
            #expect(lock.withLock { fired } == [0])
            await clock.advance(by: .milliseconds(1))
            #expect(lock.withLock { fired } == [0, start + 25_000_000])
            #expect(loop.now == start + 25_000_000)
        }
    }

    @Test(arguments: kinds)
    func advancingFirstLetsTheLoopTakeTheInputAlreadySent(kind: SelectorKind) async throws {
        let clock = ManualClock()
        try await withLoop(kind, clock: .manual(clock)) { loop in
            var ends: [Int32] = [0, 0]
            #expect(pipe(&ends) == 0)
            defer { close(ends[1]) }
            let reader = PipeReader(fd: ends[0])
            try await loop.submit { try loop.register(fd: reader.fd, interest: .readable, handler: reader) }
            for round in 1...3 {
                #expect(write(ends[1], "x", 1) == 1)
                await clock.advance(by: .zero)
                #expect(reader.received == round)
            }
            try await loop.submit { loop.deregister(fd: reader.fd) }
        }
    }

    @Test func advancingAClockWhoseLoopsStoppedReturns() async throws {
        let clock = ManualClock()
        let loop = try EventLoop(clock: .manual(clock))
        loop.start()
        loop.stop()
        await clock.advance(by: .seconds(1))
        #expect(clock.now == 2_000_000_000)
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

/// Counts the bytes read from a pipe, on its loop.
private final class PipeReader: Selectable, @unchecked Sendable {
    // Invariant: `count` is written on the loop and read by the test only after a loop round trip.
    let fd: Int32
    private let lock = Lock()
    private var count = 0

    init(fd: Int32) {
        self.fd = fd
    }

    deinit {
        close(fd)
    }

    var received: Int { lock.withLock { count } }

    func selectorEvent(_ events: SelectorEventSet) {
        var byte: UInt8 = 0
        if read(fd, &byte, 1) == 1 { lock.withLock { count += 1 } }
    }
}
