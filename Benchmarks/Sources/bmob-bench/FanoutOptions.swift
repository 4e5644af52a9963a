/// What `bmob-bench fanout` (socket.io 0.9) or `bmob-bench channel-fanout` (Pusher channels) is asked to do, read
/// from its command line.
///
///     bmob-bench fanout --port P --app-id ID --rest-key KEY [--host 127.0.0.1] [--write-port P]
///                       [--connections 10000] [--batch 256] [--rate 12] [--seconds 10] [--settle 2]
///                       [--drain 10] [--setup-timeout 180] [--server-pid PID] [--table Fan] [--groups N]
///     bmob-bench channel-fanout --port P --channels-app-id N --key K --secret S [--channel bench]
///                       [--event fanout] [the same common options]
struct FanoutOptions {
    /// The server's address; socket.io handshakes and WebSockets go to `port`.
    var host = "127.0.0.1"
    var port: UInt16 = 0
    /// Where the REST creates go; the same port unless the server under test takes writes elsewhere.
    var writePort: UInt16?
    var appId = ""
    var restKey = ""
    /// The class whose `updateTable` events every connection subscribes to.
    var table = "Fan"
    /// With a value, every create also carries `"group":g` spread over this many groups (``LiveQueryGroups``):
    /// the live-query benchmark's writes, for its socket.io reference.
    var groups: Int?
    /// WebSocket connections to open and subscribe.
    var connections = 10_000
    /// Connections set up at once (handshake, upgrade, subscription), creates or publishes per second (12) and
    /// for how long, the settle time before the idle memory reading, the drain, the setup timeout, the server.
    var load = SubscriberLoadOptions(rate: 12)
    /// Whether this is `channel-fanout`: Pusher channels instead of socket.io.
    var channels = false
    /// The app's channel credentials, for `channel-fanout`.
    var channelsAppId = ""
    var channelsKey = ""
    var channelsSecret = ""
    /// The public channel every connection subscribes to, and the published event's name.
    var channel = "bench"
    var event = "fanout"

    /// What tells the chosen protocol apart.
    var dialect: any FanoutDialect {
        channels
            ? ChannelsDialect(
                appId: channelsAppId, key: channelsKey, secret: channelsSecret, channel: channel, event: event)
            : SocketIODialect(appId: appId, restKey: restKey, table: table, groups: groups)
    }

    static let usage = """
        usage: bmob-bench fanout --port P --app-id ID --rest-key KEY [--table NAME] [--groups N] [common options]
               bmob-bench channel-fanout --port P --channels-app-id N --key K --secret S [--channel NAME]
               [--event NAME] [common options]
        common options: [--host H] [--write-port P] [--connections N] [--batch N] [--rate EVENTS_PER_S]
               [--seconds S] [--settle S] [--drain S] [--setup-timeout S] [--server-pid PID]
        """

    /// Parses the arguments after `fanout` or `channel-fanout`; exits with a message when they are wrong.
    ///
    /// - Parameters:
    ///   - arguments: the command line after the subcommand name.
    ///   - channels: whether the subcommand is `channel-fanout`.
    /// - Returns: the options.
    static func parse(_ arguments: [String], channels: Bool) -> FanoutOptions {
        var options = FanoutOptions()
        options.channels = channels
        var reader = CommandLineArguments(arguments, usage: usage)
        while let flag = reader.nextFlag() {
            switch flag {
            case "--host": options.host = reader.value(flag)
            case "--port": options.port = reader.port(flag)
            case "--write-port": options.writePort = reader.port(flag)
            case "--app-id": options.appId = reader.value(flag)
            case "--rest-key": options.restKey = reader.value(flag)
            case "--table": options.table = reader.value(flag)
            case "--groups": options.groups = reader.count(flag)
            case "--channels-app-id": options.channelsAppId = reader.value(flag)
            case "--key": options.channelsKey = reader.value(flag)
            case "--secret": options.channelsSecret = reader.value(flag)
            case "--channel": options.channel = reader.value(flag)
            case "--event": options.event = reader.value(flag)
            case "--connections": options.connections = reader.count(flag)
            default:
                if !options.load.read(flag, from: &reader) { fail("unknown option \(flag)\n\(usage)") }
            }
        }
        if options.port == 0 { fail("--port is required\n\(usage)") }
        if channels {
            if options.channelsAppId.isEmpty || options.channelsKey.isEmpty || options.channelsSecret.isEmpty {
                fail("--channels-app-id, --key and --secret are required\n\(usage)")
            }
            // They land unescaped in JSON, a URL path and a query.
            guard options.channelsAppId.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
                fail("--channels-app-id must be digits")
            }
            for (flag, text) in [
                ("--key", options.channelsKey), ("--channel", options.channel), ("--event", options.event),
            ] where !CommandLineArguments.isName(text, allowingHyphen: true) {
                fail("\(flag) must be letters, digits, '-' and '_'")
            }
            if options.event.hasPrefix("pusher") { fail("--event must not be a protocol event") }
        } else if options.appId.isEmpty || options.restKey.isEmpty {
            fail("--app-id and --rest-key are required")
        }
        if options.load.rate <= 0 || options.load.seconds <= 0 { fail("--rate and --seconds must be positive") }
        // The table name lands unescaped in JSON and a URL path; Bmob class names are letters, digits and _.
        guard CommandLineArguments.isName(options.table, allowingHyphen: false) else {
            fail("--table must be a class name of letters, digits and underscores")
        }
        return options
    }
}
