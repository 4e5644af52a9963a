import BmobIO

/// The one deadline timer of a loop-confined connection: armed for the earliest deadline asked for, with the
/// previous timer cancelled. Its callback may hold the connection strongly (a weak capture gives the object a
/// side table, and every later retain of it takes Swift's slow reference-counting path), so the connection
/// must ``cancel(on:)`` when it closes.
struct ConnectionTimer {
    /// The deadline the armed timer fires at (nanoseconds of the loop's clock), if one is armed.
    private(set) var deadline: UInt64?
    private var id: TimerID?

    /// Arms for `when` unless a timer for an earlier (or the same) deadline is armed. The callback to `owner` is
    /// made only when a timer is armed: most calls only push a deadline out and make no closure.
    mutating func arm(at when: UInt64, on loop: EventLoop, for owner: some ConnectionTimerOwner) {
        if let deadline, deadline <= when { return }
        if let id { loop.cancelTimer(id) }
        deadline = when
        id = loop.scheduleTimer(atNanoseconds: when) { owner.timerFired(armedFor: when) }
    }

    /// Call first thing when the timer armed for `when` fires: whether it is still the armed one (the timer
    /// is then disarmed, ready to be armed again).
    mutating func fired(armedFor when: UInt64) -> Bool {
        guard deadline == when else { return false }
        deadline = nil
        id = nil
        return true
    }

    /// Cancels the armed timer, releasing its callback.
    mutating func cancel(on loop: EventLoop) {
        if let id { loop.cancelTimer(id) }
        id = nil
        deadline = nil
    }
}
