/// The outcome of a non-blocking call: done, or it would have blocked.
package enum IOResult<Value> {
    case processed(Value)
    case wouldBlock
}

extension IOResult: Sendable where Value: Sendable {}
