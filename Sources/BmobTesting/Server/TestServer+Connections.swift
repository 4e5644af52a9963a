import BmobServer

extension TestServer {
    /// Waits until the server holds exactly `count` client connections (HTTP and WebSocket), checking every
    /// 10 ms: the server learns of a connection's opening and closing asynchronously.
    ///
    /// - Returns: whether it did within `timeout` seconds.
    package func waitForConnectionCount(_ count: Int, timeout: Double = 10) async -> Bool {
        let deadline = ContinuousClock.now.advanced(by: .milliseconds(Int(timeout * 1000)))
        while server.connectionCount != count {
            guard ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return true
    }
}
