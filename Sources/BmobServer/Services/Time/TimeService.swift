package import BmobWire

/// The server's time as clients read it: REST `/1/timestamp` and the native protocol's `timestamp` and `init`.
package struct TimeService: Sendable {
    /// The server's clock.
    package let clock: ServerClock

    /// A time service reading `clock`.
    package init(clock: ServerClock) {
        self.clock = clock
    }

    /// `{"timestamp": <unix seconds>, "datetime": "YYYY-MM-DD HH:MM:SS"}`, the datetime in the app's time zone
    /// (Beijing time unless the app says otherwise, as Bmob cloud answers).
    package func timestamp(context: AppContext) -> [String: JSONValue] {
        let seconds = clock.nowSeconds
        let datetime = BmobDateFormat.format(
            secondsSince1970: seconds, offsetSeconds: context.app.timeZoneOffsetSeconds)
        return ["timestamp": .int(seconds), "datetime": .string(datetime)]
    }
}
