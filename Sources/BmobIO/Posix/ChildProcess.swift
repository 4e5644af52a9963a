import CSystemShims

#if canImport(Glibc)
import Glibc
#endif

/// A program started with `posix_spawn`, for tools and tests that run other processes (Python peers, `openssl`,
/// `bmob` itself): its standard streams are pipes or `/dev/null`, it inherits no other descriptor, and a thread
/// of its own waits for it to exit.
///
/// Foundation's `Process.run()` is not used: on Linux it reads `/proc/self/fd` in the parent with a copy that can
/// run past the end of glibc's buffer, and crashes a busy test process now and then. Starting a child here reads
/// nothing of the kind (the child closes its descriptors with `close_range`).
package final class ChildProcess: Sendable {
    /// Where one of the child's standard streams goes.
    package enum Stream: Sendable {
        /// `/dev/null`.
        case null
        /// A pipe whose other end the parent holds (``input``, ``output``, ``error``).
        case pipe
        /// The parent's own descriptor of the same number.
        case inherit
    }

    /// How the child ended.
    package enum Termination: Sendable, Equatable {
        /// It exited with this status.
        case exited(Int32)
        /// A signal ended it.
        case signaled(Int32)

        /// The exit status, or the signal's number (as Foundation's `terminationStatus` reports it).
        package var status: Int32 {
            switch self {
            case .exited(let status), .signaled(let status): status
            }
        }
    }

    /// The child's process id.
    package let pid: Int32
    /// The write end of the child's standard input, when it is a pipe.
    package let input: Int32?
    /// The read end of the child's standard output, when it is a pipe.
    package let output: Int32?
    /// The read end of the child's standard error, when it is a pipe.
    package let error: Int32?
    private let state = LockedValue(State())

    private struct State: Sendable {
        var termination: Termination?
        var waiters: [@Sendable (Termination) -> Void] = []
        var inputOpen = true
    }

    /// Starts `executable` (a path) with `arguments`, in `directory` (by default the current one), with
    /// `environment` (by default the parent's).
    ///
    /// - Throws: ``IOError`` when a pipe cannot be made or the program cannot be started.
    package init(
        _ executable: String,
        _ arguments: [String] = [],
        environment: [String: String]? = nil,
        directory: String? = nil,
        input inputStream: Stream = .null,
        output outputStream: Stream = .null,
        error errorStream: Stream = .null
    ) throws(IOError) {
        var parentEnds: [Int32?] = [nil, nil, nil]
        var childEnds: [Int32] = [-1, -1, -1]
        func closeAll() {
            for fd in parentEnds.compactMap({ $0 }) + childEnds where fd > 2 { close(fd) }
        }
        for (index, stream) in [inputStream, outputStream, errorStream].enumerated() {
            switch stream {
            case .null:
                continue
            case .inherit:
                childEnds[index] = Int32(index)
            case .pipe:
                var fds: [Int32] = [-1, -1]
                guard CSystemShims_pipe_cloexec(&fds) == 0 else {
                    let error = IOError(errno: CSystemShims_errno(), function: "pipe")
                    closeAll()
                    throw error
                }
                // The child reads its standard input and writes the other two.
                parentEnds[index] = index == 0 ? fds[1] : fds[0]
                childEnds[index] = index == 0 ? fds[0] : fds[1]
            }
        }
        var environmentEntries: [String] = []
        if let environment {
            environmentEntries = environment.map { "\($0.key)=\($0.value)" }
        } else {
            var entry = environ
            while let pointer = entry.pointee {
                environmentEntries.append(String(cString: pointer))
                entry += 1
            }
        }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environmentEntries.map { strdup($0) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid = pid_t()
        let result: Int32
        if let directory {
            result = directory.withCString { path in
                CSystemShims_spawn(&pid, executable, argv, envp, path, childEnds[0], childEnds[1], childEnds[2])
            }
        } else {
            result = CSystemShims_spawn(&pid, executable, argv, envp, nil, childEnds[0], childEnds[1], childEnds[2])
        }
        // The child has its copies now (or never started): the parent keeps only its ends.
        for fd in childEnds where fd > 2 { close(fd) }
        childEnds = [-1, -1, -1]
        guard result == 0 else {
            closeAll()
            throw IOError(errno: result, function: "posix_spawn \(executable)")
        }
        self.pid = pid
        self.input = parentEnds[0]
        self.output = parentEnds[1]
        self.error = parentEnds[2]
        let state = self.state
        Thread.spawn(name: "child-\(pid)") {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && CSystemShims_errno() == EINTR {}
            let termination: Termination =
                status & 0x7f == 0 ? .exited((status >> 8) & 0xff) : .signaled(status & 0x7f)
            let waiters = state.withLock { state in
                state.termination = termination
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter(termination) }
        }.detach()
    }

    deinit {
        closeInput()
        if let output { close(output) }
        if let error { close(error) }
    }

    /// Whether the child has not exited yet.
    package var isRunning: Bool {
        state.withLock { $0.termination == nil }
    }

    /// How the child ended, `nil` while it runs.
    package var termination: Termination? {
        state.withLock { $0.termination }
    }

    /// Calls `body` once the child has ended (at once when it already has), on the waiting thread.
    package func onTermination(_ body: @escaping @Sendable (Termination) -> Void) {
        let ended: Termination? = state.withLock { state in
            if state.termination == nil { state.waiters.append(body) }
            return state.termination
        }
        if let ended { body(ended) }
    }

    /// Waits for the child to end without holding a thread.
    package func waitForExit() async -> Termination {
        await withCheckedContinuation { continuation in
            onTermination { continuation.resume(returning: $0) }
        }
    }

    /// Sends `signal` to the child, unless it is known to have ended (its pid may name another process then).
    package func send(_ signal: Int32) {
        state.withLock { state in
            if state.termination == nil { kill(pid, signal) }
        }
    }

    /// Reads from `fd` (one of the pipes), blocking until something arrives: at most `limit` bytes, none at the end
    /// of the stream or on an error. Interrupted reads are retried (Foundation's `FileHandle.availableData`
    /// stops the process on `EINTR`).
    package static func read(_ fd: Int32, limit: Int = 65_536) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: limit) { buffer, count in
            while true {
                let result = Glibc.read(fd, buffer.baseAddress, limit)
                if result < 0 && CSystemShims_errno() == EINTR { continue }
                count = max(0, result)
                return
            }
        }
    }

    /// Everything from `fd` until its end, blocking.
    package static func readToEnd(_ fd: Int32) -> [UInt8] {
        var all: [UInt8] = []
        while true {
            let chunk = read(fd)
            if chunk.isEmpty { return all }
            all += chunk
        }
    }

    /// Closes the child's standard input (it sees the end of its input); later calls do nothing.
    package func closeInput() {
        guard let input else { return }
        let wasOpen = state.withLock { state in
            defer { state.inputOpen = false }
            return state.inputOpen
        }
        if wasOpen { close(input) }
    }
}
