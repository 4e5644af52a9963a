import BmobIO
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `bmob serve`: runs until SIGINT or SIGTERM, then shuts down gracefully; SIGHUP reloads the apps and the
/// reloadable settings (``ServeReloader``) without dropping connections. Also what a server binary of one's own
/// runs (``BmobServe/main(functions:)``), with its Swift cloud functions and triggers.
package enum ServeCommand {
    package static var usage: String {
        var text = "usage: bmob serve [options]\n\noptions (each also settable as BMOB_* or in the --config JSON file):\n"
        text += "  --config FILE            JSON file of settings (keys as below, e.g. {\"port\": 9000})\n"
        for setting in ServerConfiguration.settings {
            let flag = "\(setting.flag) \(setting.key.uppercased())"
            text += "  \(flag.padding(toLength: 24, withPad: " ", startingAt: 0)) \(setting.help) [\(setting.environment)]\n"
        }
        return text
    }

    package static func run(_ arguments: ArraySlice<String>, functions: CloudFunctions = CloudFunctions()) async throws
        -> Int32
    {
        if arguments.contains("--help") || arguments.contains("-h") {
            print(usage, terminator: "")
            return 0
        }
        let allowed = Set(ServerConfiguration.settings.map(\.flag) + ["--config"])
        let flags = try CommandLineArguments(arguments, allowed: allowed)
        let environment = ProcessInfo.processInfo.environment
        let configuration = try ConfigurationLoader.load(flags: flags.values, environment: environment)
        let logger = Logger(
            label: "bmob", level: configuration.logLevel, handler: StandardErrorLogHandler(format: configuration.logFormat))

        // Watch signals before anything else: one that arrives while starting must still stop us (a SIGHUP then
        // waits until the server runs). Every signal is kept: a stop must not be lost behind a reload.
        let (signals, deliver) = AsyncStream<Int32>.makeStream(bufferingPolicy: .unbounded)
        SignalWatcher.start(SignalWatcher.serveSignals) { deliver.yield($0) }

        let server = try await Server.start(configuration: configuration, logger: logger, functions: functions)
        if let app = server.createdDevelopmentApp {
            print("""
                created a development app in \(configuration.dataDirectory) (keys also in apps.json):
                  Application ID: \(app.applicationId)
                  REST API Key:   \(app.restKey)
                  Master Key:     \(app.masterKey)
                  Secret Key:     \(app.secretKey)
                  Sync URL:       \(server.baseURL)/apps/\(app.applicationId)  (OnebaseClient(url:))
                """)
        }
        print("listening on \(server.baseURL)")
        if let admin = server.adminAddress {
            print("metrics on http://\(admin)/metrics")
        }
        fflush(nil)  // scripts wait for this line on a pipe

        var reloader = ServeReloader(
            flags: flags.values, environment: environment, configuration: configuration, server: server,
            logger: logger)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await server.run() }
            for await signal in signals {
                if signal == SIGHUP {
                    await reloader.reload()
                    continue
                }
                logger.notice("received \(signal == SIGINT ? "SIGINT" : "SIGTERM"), shutting down")
                break
            }
            group.cancelAll()
        }
        logger.notice("stopped")
        StandardErrorBuffer.shared.flush()
        return 0
    }
}
