import BmobIO

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// `bmob serve` shuts down gracefully on SIGINT and SIGTERM. The signals are blocked here, before any other
// thread exists, so every thread inherits the mask and only the watcher thread receives them. `main` stays
// synchronous for the same reason: an async `main` hands the main thread to the dispatch main queue, whose
// signal thread would receive them with their default action.
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "serve" {
    SignalWatcher.block([SIGINT, SIGTERM])
}

/// The exit status, handed from the command's task to the main thread.
final class ExitStatus: @unchecked Sendable {
    // Invariant: `value` is written once inside `done.withLock` and read after the waiter saw `value != nil`.
    let done = ConditionLock()
    var value: Int32?
}

let status = ExitStatus()
// Detached: top-level code is main-actor code, and the main thread is about to block below, so a task
// inheriting the main actor would never run.
Task.detached {
    let result = await BmobCommand.main(arguments)
    status.done.withLock {
        status.value = result
        status.done.broadcast()
    }
}
let code = status.done.withLock { () -> Int32 in
    while status.value == nil { status.done.wait() }
    return status.value!
}
exit(code)
