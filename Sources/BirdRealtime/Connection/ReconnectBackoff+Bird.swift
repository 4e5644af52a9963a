package import BmobRealtime

extension ReconnectBackoff {
    /// ``BirdReconnectBackoff``: full jitter in `[minimum, cap]`, by default from 1 s to 30 s.
    ///
    /// Callers name `minimum`: CocoaPods builds BirdRealtime and OnebaseClient into one module, where a call with no
    /// arguments would also match `OnebaseReconnectBackoff`'s initializer.
    ///
    /// - Parameters:
    ///   - minimum: the shortest wait, and the cap after the first failure.
    ///   - maximum: the longest wait.
    package init(minimum: RealtimeDuration = .seconds(1), maximum: RealtimeDuration = .seconds(30)) {
        self.init(first: minimum, maximum: maximum, jitter: .fromFirst)
    }
}
