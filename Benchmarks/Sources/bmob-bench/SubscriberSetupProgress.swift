/// How far the setup of a benchmark's subscribers got: opened, in progress, subscribed and failed, and the
/// subscribers lost while measuring. Kept by ``ManyWebSocketClient``.
struct SubscriberSetupProgress {
    /// The index of the next connection to open.
    var nextToOpen = 0
    /// Connections holding a setup slot (opened, not yet subscribed or failed).
    var settingUp = 0
    /// Connections subscribed now.
    var subscribed = 0
    /// Connections that failed at any point, setup or later.
    var failed = 0
    /// Subscribed connections lost during the measurement.
    var droppedWhileMeasuring = 0

    /// Counts a connection that finished its setup.
    mutating func countSubscribed() {
        settingUp -= 1
        subscribed += 1
    }

    /// Counts a connection that failed.
    ///
    /// - Parameters:
    ///   - wasSettingUp: whether it held a setup slot.
    ///   - wasSubscribed: whether it was subscribed.
    ///   - measuring: whether the measurement was going on.
    mutating func countFailed(wasSettingUp: Bool, wasSubscribed: Bool, measuring: Bool) {
        if wasSettingUp { settingUp -= 1 }
        if wasSubscribed {
            subscribed -= 1
            if measuring { droppedWhileMeasuring += 1 }
        }
        failed += 1
    }
}
