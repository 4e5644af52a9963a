import BmobServer
import BmobStore
import BmobWire
import Foundation

extension BmobCommand {
    /// `bmob apps create|list`.
    enum Apps {
        static let usage = """
            usage: bmob apps create --data DIR --name NAME [--app-id ID] [--rest-key K] [--master-key M] [--secret-key S]
                                   [--channels-app-id N] [--channels-key K] [--channels-secret S] [--database postgres://…]
                   bmob apps list --data DIR [--database postgres://…]
                   bmob apps webhooks --data DIR --app-id ID [--set JSON] [--database postgres://…]
                   bmob apps history --data DIR --app-id ID [--keep-changes N|all] [--keep-days D|all] [--database postgres://…]
                   bmob apps channels --data DIR --app-id ID [--create] [--client-events on|off] [--webhook URL|none]
                                      [--authorized-connections on|off] [--subscription-count on|off]
                                      [--database postgres://…]
            'webhooks' prints the app's webhooks, or with --set replaces them: {"functions": {"<name>": "<url>"},
            "triggers": {"<Class>": {"beforeSave": "<url>", …}}, "sync": {"<module:export>": {"kind": "query|mutation|action",
            "url": "<url>", "reads": ["<Class>", …]}}, "secret": "<16+ characters>"} (a missing secret keeps the app's, or
            gets a random one; a sync query names the classes it reads). Running servers take them within a second.
            'channels' prints the app's realtime channel credentials (Pusher protocol: app id, key, secret), makes them
            for an app created before channels existed (--create), turns client events on or off, or sets where channel
            webhooks go (signed with the channel secret, as Pusher signs them). --authorized-connections on closes
            every connection that has not signed in within 30 seconds (4009); --subscription-count on tells public and
            private channels' subscribers their number whenever it changes.
            'history' prints how much change history the app keeps, or sets it: the newest N changes of each object,
            changes younger than D days, or both (the default keeps all). Servers prune older changes every ten
            minutes or so, never one younger than --history-prune-grace-seconds (default 600).
            With --database (or BMOB_DATABASE) the apps live in that PostgreSQL database, which every node reads;
            otherwise in DIR/apps.json.

            """

        static func run(_ arguments: ArraySlice<String>) throws -> Int32 {
            switch arguments.first {
            case "create":
                return try create(arguments.dropFirst())
            case "list":
                return try list(arguments.dropFirst())
            case "webhooks":
                return try webhooks(arguments.dropFirst())
            case "history":
                return try history(arguments.dropFirst())
            case "channels":
                return try channels(arguments.dropFirst())
            case "--help", "-h", "help":
                print(usage, terminator: "")
                return 0
            default:
                throw UsageError("expected 'apps create', 'apps list', 'apps webhooks', 'apps history' or 'apps channels'")
            }
        }

        private static func create(_ arguments: ArraySlice<String>) throws -> Int32 {
            let flags = try CommandLineArguments(
                arguments,
                allowed: [
                    "--data", "--name", "--app-id", "--rest-key", "--master-key", "--secret-key", "--database",
                    "--channels-app-id", "--channels-key", "--channels-secret",
                ]
            )
            guard let data = flags["--data"] else { throw UsageError("apps create needs --data DIR") }
            guard let name = flags["--name"] else { throw UsageError("apps create needs --name NAME") }
            let app = try AppRegistry(dataDirectory: data, storage: try storage(flags)).create(
                name: name,
                applicationId: flags["--app-id"],
                restKey: flags["--rest-key"],
                masterKey: flags["--master-key"],
                secretKey: flags["--secret-key"],
                channels: channelCredentials(flags),
                now: ServerClock.system.nowSeconds
            )
            print(app.json.jsonString)
            return 0
        }

        private static func list(_ arguments: ArraySlice<String>) throws -> Int32 {
            let flags = try CommandLineArguments(arguments, allowed: ["--data", "--database"])
            guard let data = flags["--data"] else { throw UsageError("apps list needs --data DIR") }
            let apps = try AppRegistry(dataDirectory: data, storage: try storage(flags)).load()
            print(JSONValue.array(apps.map(\.json)).jsonString)
            return 0
        }

        private static func webhooks(_ arguments: ArraySlice<String>) throws -> Int32 {
            let flags = try CommandLineArguments(arguments, allowed: ["--data", "--app-id", "--set", "--database"])
            guard let data = flags["--data"] else { throw UsageError("apps webhooks needs --data DIR") }
            guard let applicationId = flags["--app-id"] else { throw UsageError("apps webhooks needs --app-id ID") }
            let registry = AppRegistry(dataDirectory: data, storage: try storage(flags))
            guard let text = flags["--set"] else {
                guard let app = try registry.load().first(where: { $0.applicationId == applicationId }) else {
                    throw ConfigurationError("no app with id '\(applicationId)'")
                }
                print(app.webhooks.json.jsonString)
                return 0
            }
            guard case .object(var members)? = try? JSONParser.parse(Array(text.utf8)) else {
                throw UsageError("--set: expected a JSON object")
            }
            let app = try registry.update(applicationId: applicationId) { app in
                if members["secret"] == nil {
                    members["secret"] = .string(app.webhooks.secret.isEmpty ? AppKeys.makeKey() : app.webhooks.secret)
                }
                app.webhooks = try AppWebhooks(json: .object(members))
            }
            print(app.webhooks.json.jsonString)
            return 0
        }

        /// Random channel credentials, with the parts the flags name.
        private static func channelCredentials(_ flags: CommandLineArguments) -> AppChannels {
            var channels = AppChannels.make()
            if let appId = flags["--channels-app-id"] { channels.appId = appId }
            if let key = flags["--channels-key"] { channels.key = key }
            if let secret = flags["--channels-secret"] { channels.secret = secret }
            return channels
        }

        private static func channels(_ arguments: ArraySlice<String>) throws -> Int32 {
            let flags = try CommandLineArguments(
                arguments,
                allowed: [
                    "--data", "--app-id", "--client-events", "--webhook", "--authorized-connections", "--subscription-count",
                    "--database",
                ],
                switches: ["--create"])
            guard let data = flags["--data"] else { throw UsageError("apps channels needs --data DIR") }
            guard let applicationId = flags["--app-id"] else { throw UsageError("apps channels needs --app-id ID") }
            let registry = AppRegistry(dataDirectory: data, storage: try storage(flags))
            let clientEvents = try onOff(flags, "--client-events")
            let authorizedConnections = try onOff(flags, "--authorized-connections")
            let subscriptionCount = try onOff(flags, "--subscription-count")
            let create = flags.has("--create")
            let webhook = flags["--webhook"]
            guard create || clientEvents != nil || webhook != nil || authorizedConnections != nil || subscriptionCount != nil
            else {
                guard let app = try registry.load().first(where: { $0.applicationId == applicationId }) else {
                    throw ConfigurationError("no app with id '\(applicationId)'")
                }
                print((app.channels?.json ?? .null).jsonString)
                return 0
            }
            let others = try registry.load()
            let app = try registry.update(applicationId: applicationId) { app in
                if create, app.channels == nil {
                    var made = AppChannels.make()
                    while (try? AppRegistry.checkChannelsUnique(made, among: others)) == nil { made = .make() }
                    app.channels = made
                }
                guard var channels = app.channels else {
                    throw ConfigurationError("the app has no channel credentials yet: add --create")
                }
                if let clientEvents { channels.clientEvents = clientEvents }
                if let authorizedConnections { channels.authorizedConnections = authorizedConnections }
                if let subscriptionCount { channels.subscriptionCount = subscriptionCount }
                if let webhook { channels.webhookURL = webhook == "none" ? nil : webhook }
                try channels.validate()
                app.channels = channels
            }
            print((app.channels?.json ?? .null).jsonString)
            return 0
        }

        /// A flag's `on` or `off`; `nil` when it is absent.
        private static func onOff(_ flags: CommandLineArguments, _ name: String) throws -> Bool? {
            switch flags[name] {
            case nil: return nil
            case "on": return true
            case "off": return false
            default: throw UsageError("\(name): expected on or off")
            }
        }

        private static func history(_ arguments: ArraySlice<String>) throws -> Int32 {
            let flags = try CommandLineArguments(
                arguments, allowed: ["--data", "--app-id", "--keep-changes", "--keep-days", "--database"])
            guard let data = flags["--data"] else { throw UsageError("apps history needs --data DIR") }
            guard let applicationId = flags["--app-id"] else { throw UsageError("apps history needs --app-id ID") }
            let registry = AppRegistry(dataDirectory: data, storage: try storage(flags))
            let changes = try bound(flags["--keep-changes"], flag: "--keep-changes")
            let days = try bound(flags["--keep-days"], flag: "--keep-days")
            guard changes != nil || days != nil else {
                guard let app = try registry.load().first(where: { $0.applicationId == applicationId }) else {
                    throw ConfigurationError("no app with id '\(applicationId)'")
                }
                print(app.history.json.jsonString)
                return 0
            }
            let app = try registry.update(applicationId: applicationId) { app in
                if let changes { app.history.keepChanges = changes }
                if let days { app.history.keepDays = days }
            }
            print(app.history.json.jsonString)
            return 0
        }

        /// `all` (`.some(nil)`: no bound) or a whole number of at least 1; `nil` when the flag is absent.
        private static func bound(_ text: String?, flag: String) throws -> Int?? {
            guard let text else { return nil }
            if text == "all" { return .some(nil) }
            guard let number = Int(text), number >= 1, number <= 1_000_000_000 else {
                throw UsageError("\(flag): expected a whole number of at least 1, or 'all'")
            }
            return .some(number)
        }

        /// Where the apps live: `--database`, else `BMOB_DATABASE`, else the data folder's `apps.json`.
        private static func storage(_ flags: CommandLineArguments) throws -> StorageConfiguration {
            let value = flags["--database"] ?? ProcessInfo.processInfo.environment["BMOB_DATABASE"] ?? "sqlite"
            if value == "sqlite" { return .sqlite() }
            guard value.hasPrefix("postgres://") || value.hasPrefix("postgresql://") else {
                throw UsageError("--database: expected 'sqlite' or a postgres:// URL")
            }
            return .postgres(url: value)
        }
    }
}
