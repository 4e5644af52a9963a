import CSystemShims

/// One thread running a selector: I/O readiness, timers, and work submitted from anywhere.
///
/// An event loop is also a `TaskExecutor`. Connection handlers run as tasks that prefer their loop's
/// executor, so an `async` handler runs and resumes on the loop thread, never hopping to the global pool.
///
/// Threading rules:
/// 1. ``execute(_:)``, ``enqueue(_:)`` and ``inEventLoop`` may be called from any thread.
/// 2. Everything else — registering descriptors, timers, the read buffer — only on the loop thread
///    (checked with preconditions in debug builds).
/// 3. Nothing that blocks may run on the loop; use a ``ThreadPool``.
/// 4. Work submitted from inside ``batchingWakeups(_:)`` is queued at once, but the loop is woken only when
///    the batch ends (``WakeBatch``).
/// 5. Time is the loop's ``clock`` (read it with ``now``): the system's monotonic clock, or a ``ManualClock``
///    under test, which only moves when advanced.
package final class EventLoop: TaskExecutor, @unchecked Sendable, CustomStringConvertible {
    // Invariant: `selector`, `registrations`, `timers`, `readBuffer`, `stopped` and `selectorEventCount` are
    // touched only on the loop thread (rule 2, asserted). `pending`, `wakePending`, `stopRequested`, `exited` and
    // `wakerClosed` are guarded by `lock`, and every write to the waker happens under `lock` while `wakerClosed` is
    // false, so no thread writes to the waker's descriptor once the exiting loop closed it (or to whatever the
    // kernel reused that number for). `loopThread` is written once by the loop thread before `start()` returns to its
    // caller.

    private enum Work {
        case closure(@Sendable () -> Void)
        case job(UnownedJob)
    }

    private struct Registration {
        var handler: any Selectable
        var generation: UInt32
    }

    /// Position in its group, for logs.
    package let index: Int
    private let selector: any Selector
    private let waker: SelectorWaker
    private let lock = Lock()
    private var pending: [Work] = []
    private var wakePending = false
    private var stopRequested = false
    private var registrations: [Registration?] = []
    private var generation: UInt32 = 0
    private var timers = TimerHeap()
    private var loopThread: Thread?
    private let started = ConditionLock()
    private var stopped = false
    /// Set, under `lock`, when the loop has left its run loop: work submitted afterwards never runs.
    private var exited = false
    private var wakerClosed = false
    /// The loop's clock; `manualClock` is its manual clock, if that is what it is (one check on every read).
    package let clock: EventLoopClock
    private let manualClock: ManualClock?
    /// Descriptor events handled so far, for ``settle()``.
    private var selectorEventCount: UInt64 = 0

    /// A buffer connections on this loop read into; handlers copy what they keep.
    package let readBuffer: UnsafeMutableRawBufferPointer

    /// Creates a loop; call ``start()`` to run it on its own thread.
    ///
    /// - Parameter clock: what the loop's timers are measured against; a manual clock makes them fire only
    ///   when it is advanced.
    package init(
        index: Int = 0, selectorKind: SelectorKind = .platformDefault, readBufferSize: Int = 64 * 1024,
        clock: EventLoopClock = .system
    ) throws(IOError) {
        self.index = index
        self.selector = try selectorKind.makeSelector()
        self.waker = selector.waker
        self.readBuffer = .allocate(byteCount: readBufferSize, alignment: 16)
        self.clock = clock
        if case .manual(let manual) = clock {
            self.manualClock = manual
            manual.attach(self)
        } else {
            self.manualClock = nil
        }
    }

    deinit {
        readBuffer.deallocate()
    }

    package var description: String { "EventLoop(\(index))" }

    /// Whether the caller is on this loop's thread.
    package var inEventLoop: Bool {
        loopThread?.isCurrent ?? false
    }

    /// Starts the loop thread and returns once it runs.
    package func start() {
        let thread = Thread.spawn(name: "bmob-loop-\(index)") { [self] in
            // Wait until `loopThread` is set, so `inEventLoop` is true from the first iteration.
            started.withLock {
                while loopThread == nil { started.wait() }
            }
            run()
        }
        started.withLock {
            loopThread = thread
            started.broadcast()
        }
    }

    /// Asks the loop to finish queued work and exit, then waits for its thread.
    package func stop() {
        lock.withLock {
            stopRequested = true
            wakeWhileLocked()
        }
        if let thread = loopThread, !thread.isCurrent {
            thread.join()
        }
    }

    // MARK: - Work from any thread

    /// Runs `work` on the loop thread, after the work queued before it.
    package func execute(_ work: @escaping @Sendable () -> Void) {
        submit(.closure(work))
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        submit(.job(UnownedJob(job)))
    }

    /// Queues work and returns whether it was queued: work submitted after the loop exited is dropped (a loop that
    /// stopped runs nothing more).
    @discardableResult
    private func submit(_ work: Work) -> Bool {
        let onLoop = inEventLoop
        let (queued, held): (Bool, WakeBatch?) = lock.withLock {
            guard !exited else { return (false, nil) }
            pending.append(work)
            guard !onLoop, !wakePending else { return (true, nil) }
            wakePending = true
            if let batch = WakeBatch.current { return (true, batch) }
            wakeWhileLocked()
            return (true, nil)
        }
        held?.hold(self)
        return queued
    }

    /// Wakes the loop unless it exited and closed its waker; the caller holds `lock`.
    private func wakeWhileLocked() {
        if !wakerClosed { waker.wake() }
    }

    /// Runs `body` with the wake-ups of loops it submits work to held back until it returns: each loop is
    /// then woken once (see ``WakeBatch``). For a thread handing out a burst of work, such as resuming a
    /// group of tasks.
    package static func batchingWakeups<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        try WakeBatch.run(body)
    }

    /// Sends the wake-up a batch held back (none once the loop exited).
    func wakeHeldBack() {
        lock.withLock { wakeWhileLocked() }
    }

    /// Runs `body` on the loop and returns its result to the calling task.
    package func submit<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            execute { continuation.resume(with: Result { try body() }) }
        }
    }

    // MARK: - Loop-only API

    /// Asserts (in debug builds) that the caller is on the loop thread.
    @inline(__always)
    package func assertInEventLoop(file: StaticString = #fileID, line: UInt = #line) {
        assert(inEventLoop, "called off \(self)", file: file, line: line)
    }

    /// Registers `handler` for `fd`. The loop keeps the handler alive until ``deregister(fd:)``.
    package func register(fd: Int32, interest: SelectorEventSet, handler: any Selectable) throws(IOError) {
        assertInEventLoop()
        let slot = Int(fd)
        if slot >= registrations.count {
            registrations.append(contentsOf: repeatElement(nil, count: slot - registrations.count + 1))
        }
        generation &+= 1
        registrations[slot] = Registration(handler: handler, generation: generation)
        try selector.register(fd: fd, interest: interest, token: token(fd: fd, generation: generation))
    }

    /// Changes what `fd` is watched for.
    package func reregister(fd: Int32, interest: SelectorEventSet) throws(IOError) {
        assertInEventLoop()
        guard let registration = registrations[Int(fd)] else { return }
        try selector.reregister(fd: fd, interest: interest, token: token(fd: fd, generation: registration.generation))
    }

    /// Stops watching `fd` and releases its handler. Call before closing the descriptor.
    package func deregister(fd: Int32) {
        assertInEventLoop()
        guard Int(fd) < registrations.count, registrations[Int(fd)] != nil else { return }
        registrations[Int(fd)] = nil
        try? selector.deregister(fd: fd)
    }

    /// Number of descriptors registered (listeners and connections).
    package var registrationCount: Int {
        assertInEventLoop()
        return registrations.reduce(0) { $0 + ($1 == nil ? 0 : 1) }
    }

    private func token(fd: Int32, generation: UInt32) -> UInt64 {
        UInt64(generation) << 32 | UInt64(UInt32(bitPattern: fd))
    }

    /// The loop's time in monotonic nanoseconds, read from its ``clock``: what its timers are measured
    /// against. Code on the loop reads time here rather than from the system, so that a manual clock governs it
    /// in tests. May be read from any thread.
    package var now: UInt64 {
        if let manualClock { return manualClock.now }
        return Posix.monotonicNanoseconds()
    }

    /// Calls `callback` on the loop once `delay` nanoseconds have passed on its clock.
    @discardableResult
    package func scheduleTimer(afterNanoseconds delay: UInt64, _ callback: @escaping () -> Void) -> TimerID {
        assertInEventLoop()
        return TimerID(rawValue: timers.schedule(deadline: now &+ delay, callback))
    }

    /// Calls `callback` on the loop once its clock reads `deadline` (at once, on the loop's next turn, when it
    /// already does).
    @discardableResult
    package func scheduleTimer(atNanoseconds deadline: UInt64, _ callback: @escaping () -> Void) -> TimerID {
        assertInEventLoop()
        return TimerID(rawValue: timers.schedule(deadline: deadline, callback))
    }

    /// Cancels a timer that has not fired yet.
    package func cancelTimer(_ id: TimerID) {
        assertInEventLoop()
        timers.cancel(id.rawValue)
    }

    // MARK: - Manual time

    /// Waits for one turn of the loop; `nil` when the loop has stopped, else how many descriptor events it had
    /// handled by then.
    private func eventCountAfterATurn() async -> UInt64? {
        await withCheckedContinuation { (continuation: CheckedContinuation<UInt64?, Never>) in
            let queued = submit(.closure { continuation.resume(returning: self.selectorEventCount) })
            if !queued { continuation.resume(returning: nil) }
        }
    }

    /// Returns once the loop has polled its descriptors and found nothing new: connections accepted, bytes read,
    /// closes seen. Every poll between two turns of the loop happens after the first turn, so two turns with the
    /// same event count mean a poll that found nothing. Used by ``ManualClock/advance(by:)``.
    func settle() async {
        guard var count = await eventCountAfterATurn() else { return }
        for _ in 0..<1000 {
            guard let next = await eventCountAfterATurn(), next != count else { return }
            count = next
        }
    }

    /// Fires, on the loop, every timer due at the loop's time (also those that come due as others fire), and
    /// returns once they ran. Used by ``ManualClock/advance(by:)``.
    func fireDueTimers() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let queued = submit(
                .closure {
                    self.runDueTimers()
                    continuation.resume()
                })
            if !queued { continuation.resume() }
        }
    }

    private func runDueTimers() {
        while !timers.isEmpty {
            let due = timers.popExpired(now: now)
            if due.isEmpty { return }
            for callback in due { callback() }
        }
    }

    // MARK: - The loop

    /// How long the selector may wait: not at all with work queued, else until the next timer. With a manual
    /// clock a future timer never ends the wait: only advancing the clock (which wakes the loop) makes it due.
    private func selectorTimeout(hasWork: Bool) -> UInt64? {
        if hasWork { return 0 }
        guard let deadline = timers.nextDeadline() else { return nil }
        let now = self.now
        if deadline <= now { return 0 }
        return manualClock == nil ? deadline - now : nil
    }

    private func run() {
        while true {
            let (hasWork, shouldStop) = lock.withLock {
                let hasWork = !pending.isEmpty
                if stopRequested, !hasWork { exited = true }
                return (hasWork, stopRequested)
            }
            if shouldStop, !hasWork { break }
            let timeout = selectorTimeout(hasWork: hasWork)
            do {
                try selector.whenReady(timeoutNanoseconds: timeout) { token, events in
                    selectorEventCount &+= 1
                    let fd = Int(UInt32(truncatingIfNeeded: token))
                    let tokenGeneration = UInt32(truncatingIfNeeded: token >> 32)
                    guard fd < registrations.count, let registration = registrations[fd],
                        registration.generation == tokenGeneration
                    else { return }
                    registration.handler.selectorEvent(events)
                }
            } catch {
                preconditionFailure("\(self) selector failed: \(error)")
            }
            if !timers.isEmpty {
                for callback in timers.popExpired(now: now) {
                    callback()
                }
            }
            let work: [Work] = lock.withLock {
                wakePending = false
                let taken = pending
                pending.removeAll(keepingCapacity: true)
                return taken
            }
            for item in work {
                switch item {
                case .closure(let closure): closure()
                case .job(let job): job.runSynchronously(on: asUnownedTaskExecutor())
                }
            }
        }
        stopped = true
        manualClock?.detach(self)
        timers.removeAll()
        registrations.removeAll()
        lock.withLock { wakerClosed = true }
        selector.close()
    }
}
