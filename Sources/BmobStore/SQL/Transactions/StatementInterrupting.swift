/// Stops the statement a connection is running, from any thread: what a read's ticket calls when its task is
/// cancelled.
protocol StatementInterrupting: Sendable {
    /// Asks the engine to stop the running statement; best effort (it may have finished already).
    func interrupt()
}
