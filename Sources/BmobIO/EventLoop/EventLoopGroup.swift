import CSystemShims

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A fixed set of event loops, one per core by default.
package final class EventLoopGroup: Sendable {
    package let loops: [EventLoop]
    private let nextIndex = NextIndex()

    /// Creates and starts `loopCount` loops, all reading time from `clock`.
    package init(
        loopCount: Int = EventLoopGroup.coreCount, selectorKind: SelectorKind = .platformDefault,
        clock: EventLoopClock = .system
    ) throws(IOError) {
        precondition(loopCount > 0, "an event loop group needs at least one loop")
        var loops: [EventLoop] = []
        for index in 0..<loopCount {
            loops.append(try EventLoop(index: index, selectorKind: selectorKind, clock: clock))
        }
        self.loops = loops
        for loop in loops { loop.start() }
    }

    /// The number of online processors.
    package static var coreCount: Int {
        max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }

    /// Loops in turn, for spreading work.
    package func next() -> EventLoop {
        loops[nextIndex.increment() % loops.count]
    }

    /// Stops every loop and joins their threads.
    package func shutdown() {
        for loop in loops { loop.stop() }
    }

    /// A round-robin counter.
    private final class NextIndex: Sendable {
        private let lock = Lock()
        // Invariant: `value` only changes under `lock`.
        private nonisolated(unsafe) var value = 0

        func increment() -> Int {
            lock.withLock {
                value &+= 1
                return value & Int.max
            }
        }
    }
}
