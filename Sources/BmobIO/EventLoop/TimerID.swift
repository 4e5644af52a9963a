/// Identifies a scheduled timer so that it can be cancelled.
package struct TimerID: Hashable, Sendable {
    let rawValue: UInt64
}
