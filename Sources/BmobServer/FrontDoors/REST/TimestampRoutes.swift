import BmobHTTP
import BmobWire

/// `GET /1/timestamp`: the server time, `{"timestamp": <unix seconds>, "datetime": "YYYY-MM-DD HH:MM:SS"}`,
/// the datetime in the app's time zone (Beijing time unless the app says otherwise, as Bmob cloud answers).
package enum TimestampRoutes {
    package static func register(in router: inout BmobRouter) {
        router.app(.get, "/1/timestamp") { request, context in
            let seconds = request.server.clock.nowSeconds
            let datetime = BmobDateFormat.format(secondsSince1970: seconds, offsetSeconds: context.app.timeZoneOffsetSeconds)
            return .json(["timestamp": .int(seconds), "datetime": .string(datetime)])
        }
    }
}
