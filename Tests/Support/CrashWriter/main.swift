// The child process of the store's crash test.
//
// Usage: bmob-crash-writer <database path> [tasks] [normal|full]
//
// Opens an SQLiteStore and inserts objects from several tasks until it is killed. After each write has
// returned (that is, committed), it prints `ack <objectId>` to stdout in one write(2) call, so the parent
// sees exactly the acknowledged writes even when SIGKILL lands mid-write.
import BmobStore
import BmobWire

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes one line with a single write(2): atomic on a pipe, and never buffered in this process.
func writeLine(_ text: String, to descriptor: Int32) {
    let line = Array("\(text)\n".utf8)
    var offset = 0
    while offset < line.count {
        let written = line[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        if written < 0 {
            if errno == EINTR { continue }
            exit(3)
        }
        offset += written
    }
}

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    writeLine("usage: bmob-crash-writer <database path> [tasks] [normal|full]", to: STDERR_FILENO)
    exit(2)
}
let taskCount = arguments.count > 2 ? Int(arguments[2]) ?? 8 : 8
let synchronous: SQLiteStore.SynchronousMode = arguments.count > 3 && arguments[3] == "full" ? .full : .normal
/// A bound so that a child whose parent forgot it does not fill the disk.
let writesPerTask = 100_000

let store = try await SQLiteStore.open(.init(path: arguments[1], synchronous: synchronous))
try await withThrowingTaskGroup(of: Void.self) { group in
    for task in 0..<taskCount {
        group.addTask {
            for number in 0..<writesPerTask {
                let objectId = "t\(task)n\(number)"
                try await store.write(caller: "crash-writer") { transaction in
                    try transaction.insert(
                        StoredObject(
                            className: "CrashItem", objectId: objectId, createdAt: Int64(number),
                            updatedAt: Int64(number),
                            fields: ["task": .int(Int64(task)), "number": .int(Int64(number))]))
                }
                writeLine("ack \(objectId)", to: STDOUT_FILENO)
            }
        }
    }
    try await group.waitForAll()
}
await store.close()
