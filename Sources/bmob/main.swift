import BmobIO
import BmobServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// `bmob serve` shuts down gracefully on SIGINT and SIGTERM and reloads on SIGHUP. The signals are blocked here, before any other
// thread exists, so every thread inherits the mask and only the watcher thread receives them; `main` stays
// synchronous (``BlockingMain``) for the same reason.
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "serve" {
    SignalWatcher.block(SignalWatcher.serveSignals)
}
BlockingMain.run { await BmobCommand.main(arguments) }
