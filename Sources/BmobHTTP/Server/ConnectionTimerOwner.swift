/// A loop-confined connection that a ``ConnectionTimer`` calls back when its deadline passes.
protocol ConnectionTimerOwner: AnyObject {
    /// The timer armed for `when` fired; start with ``ConnectionTimer/fired(armedFor:)``.
    func timerFired(armedFor when: UInt64)
}
