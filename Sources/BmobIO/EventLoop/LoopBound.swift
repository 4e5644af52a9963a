/// Carries a loop-confined value across a `Sendable` boundary (into a task that runs on the same loop).
///
/// Every access checks that it happens on the owning loop, which is what makes the `Sendable`
/// conformance sound: the value is only ever touched from one thread.
package struct LoopBound<Value>: @unchecked Sendable {
    // Invariant: `_value` is read and written only on `loop`'s thread (precondition on every access).
    private let _value: Value
    package let loop: EventLoop

    /// Wraps `value`; must be called on `loop`.
    package init(_ value: Value, loop: EventLoop) {
        precondition(loop.inEventLoop, "LoopBound created off its loop")
        self._value = value
        self.loop = loop
    }

    /// The value; must be called on `loop`.
    package var value: Value {
        precondition(loop.inEventLoop, "LoopBound accessed off its loop")
        return _value
    }
}
