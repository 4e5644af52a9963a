import Synchronization

/// A monotonic clock that moves only when advanced, for event loops under test (``EventLoopClock/manual(_:)``).
///
/// Loops created with it measure their timers against it and never time out their selector wait on their own,
/// so a test of a 30-second timeout runs in microseconds and cannot be starved by a loaded machine:
///
/// ```swift
/// let clock = ManualClock()
/// let server = try await HTTPServer.start(configuration: .init(port: 0, clock: .manual(clock)), responder: r)
/// try await connection.send("GET / HTTP/1.1\r\n")   // half a head
/// await clock.advance(by: .seconds(11))             // the header timeout fires: 408
/// ```
///
/// Threading rules:
/// 1. Every method may be called from any thread or task.
/// 2. ``advance(by:)`` first lets every attached loop take the I/O already delivered to it, then moves the time,
///    then fires the timers due on each loop (on that loop), and returns once they ran.
/// 3. Loops attach themselves when created with the clock and detach when they stop.
package final class ManualClock: @unchecked Sendable {
    // Invariant: `nanoseconds` is atomic; `loops` is read and written only under `lock`.
    private let nanoseconds: Atomic<UInt64>
    private let lock = Lock()
    private var loops: [ObjectIdentifier: WeakLoop] = [:]

    private struct WeakLoop {
        weak var loop: EventLoop?
    }

    /// A clock reading `start` nanoseconds (one second by default, so that no deadline is near zero).
    package init(startingAt start: UInt64 = 1_000_000_000) {
        nanoseconds = Atomic(start)
    }

    /// The clock's time in nanoseconds.
    package var now: UInt64 {
        nanoseconds.load(ordering: .acquiring)
    }

    /// Moves the clock forward by `duration` and returns once every attached loop has fired the timers that
    /// became due.
    ///
    /// Before the time moves, each loop polls its descriptors until a poll finds nothing new, so that bytes a
    /// test sent (or a connection it opened) before advancing are seen at the old time: a request's first byte
    /// starts its header timeout before that timeout is advanced past.
    package func advance(by duration: Duration) async {
        let attached = attachedLoops()
        for loop in attached {
            await loop.settle()
        }
        nanoseconds.add(duration.nanoseconds, ordering: .releasing)
        for loop in attached {
            await loop.fireDueTimers()
        }
    }

    func attach(_ loop: EventLoop) {
        lock.withLock { loops[ObjectIdentifier(loop)] = WeakLoop(loop: loop) }
    }

    func detach(_ loop: EventLoop) {
        lock.withLock { _ = loops.removeValue(forKey: ObjectIdentifier(loop)) }
    }

    private func attachedLoops() -> [EventLoop] {
        lock.withLock { loops.values.compactMap(\.loop) }.sorted { $0.index < $1.index }
    }
}

extension Duration {
    /// Whole nanoseconds, clamped to zero.
    var nanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        guard seconds >= 0 else { return 0 }
        return UInt64(seconds) &* 1_000_000_000 &+ UInt64(attoseconds / 1_000_000_000)
    }
}
