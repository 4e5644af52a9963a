/// Where event loops read the time: the system's monotonic clock, or a ``ManualClock`` that a test moves.
///
/// A loop measures every timer against its clock, and with a manual clock its selector never times out on
/// its own: timers fire only when the clock is advanced. Code on a loop reads the time from
/// ``EventLoop/now``, never from the system, so that it follows whichever clock its loop was given.
package enum EventLoopClock: Sendable {
    /// The monotonic system clock (the default).
    case system
    /// A clock that moves only when advanced; for tests and simulations.
    case manual(ManualClock)

    /// The clock's time in nanoseconds.
    package var now: UInt64 {
        switch self {
        case .system: Posix.monotonicNanoseconds()
        case .manual(let clock): clock.now
        }
    }
}
