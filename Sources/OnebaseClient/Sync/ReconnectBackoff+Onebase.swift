package import BmobRealtime

extension ReconnectBackoff {
    /// ``OnebaseReconnectBackoff``: a wait in `[cap / 2, cap]`, the cap by default from 1 s to 16 s.
    ///
    /// - Parameters:
    ///   - initial: the cap after the first failure.
    ///   - maximum: the largest cap.
    package init(initial: RealtimeDuration = .seconds(1), maximum: RealtimeDuration = .seconds(16)) {
        self.init(first: initial, maximum: maximum, jitter: .upperHalf)
    }
}
