import BmobIO

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A Bmob server binary of one's own: `bmob serve` with Swift cloud functions and triggers.
///
/// ```swift
/// import BmobServer
///
/// var functions = CloudFunctions()
/// functions.register("hello") { request in
///     .string("Hello, \(request.params["name"]?.stringValue ?? "world")")
/// }
/// functions.on(.beforeSave, className: "Score") { request in
///     guard let points = request.object?["points"]?.int64Value, points >= 0 else {
///         throw CloudFunctionError(code: 142, message: "points cannot be negative")
///     }
///     return nil
/// }
/// BmobServe.main(functions: functions)
/// ```
///
/// The binary takes every option of `bmob serve` (flags, `BMOB_*` variables, `--config`), stops gracefully on
/// SIGINT and SIGTERM, and reloads its apps and reloadable settings on SIGHUP.
public enum BmobServe {
    /// Runs the server with `functions` until SIGINT or SIGTERM, then exits the process: status 0 after a graceful
    /// stop, 1 when the server cannot start, 2 for a bad command line. Call it from top-level code, before any
    /// thread is started: it blocks the stop and reload signals first, so that every thread inherits the mask and only the
    /// server's watcher receives them.
    ///
    /// - Parameters:
    ///   - functions: the Swift cloud functions and triggers to serve.
    ///   - arguments: the command line without the program's name (by default the process's own).
    public static func main(functions: CloudFunctions, arguments: [String] = Array(CommandLine.arguments.dropFirst()))
        -> Never
    {
        SignalWatcher.block(SignalWatcher.serveSignals)
        BlockingMain.run {
            do {
                return try await ServeCommand.run(arguments[...], functions: functions)
            } catch let error as UsageError {
                BlockingMain.printError("\(error.message)\n\(ServeCommand.usage)")
                return 2
            } catch {
                BlockingMain.printError("\(error)")
                return 1
            }
        }
    }
}
