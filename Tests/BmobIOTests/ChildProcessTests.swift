import BmobIO
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("ChildProcess")
struct ChildProcessTests {
    @Test("output and errors come through their pipes; the exit status is reported")
    func pipesAndExitStatus() async throws {
        let process = try ChildProcess("/bin/sh", ["-c", "printf out; printf err >&2; exit 3"], output: .pipe, error: .pipe)
        #expect(ChildProcess.readToEnd(process.output!) == Array("out".utf8))
        #expect(ChildProcess.readToEnd(process.error!) == Array("err".utf8))
        #expect(await process.waitForExit() == .exited(3))
        #expect(!process.isRunning)
    }

    @Test("standard input is a pipe the parent closes; the directory and environment are the given ones")
    func inputDirectoryAndEnvironment() async throws {
        let process = try ChildProcess(
            "/bin/sh", ["-c", "cat; pwd; printf \"$GREETING\""], environment: ["GREETING": "hello"], directory: "/tmp",
            input: .pipe, output: .pipe)
        #expect(process.isRunning)
        process.closeInput()
        process.closeInput()
        #expect(String(decoding: ChildProcess.readToEnd(process.output!), as: UTF8.self) == "/tmp\nhello")
        #expect(await process.waitForExit() == .exited(0))
    }

    @Test("a signal ends the child and is reported as such")
    func signals() async throws {
        let process = try ChildProcess("/bin/sleep", ["30"])
        process.send(SIGKILL)
        #expect(await process.waitForExit() == .signaled(SIGKILL))
        // Once reaped, signals are not sent: the pid may already name another process.
        process.send(SIGKILL)
        #expect(process.termination?.status == SIGKILL)
    }

    @Test("the child starts with no signal blocked or ignored, whatever the spawning thread blocks")
    func signalStateIsNotInherited() async throws {
        // Blocked and ignored on the spawning thread, as a server's signal watcher does.
        var blocked = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGTERM)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        let oldHandler = signal(SIGINT, SIG_IGN)
        let process = try ChildProcess("/bin/sh", ["-c", "grep -E '^Sig(Blk|Ign)' /proc/self/status"], output: .pipe)
        pthread_sigmask(SIG_SETMASK, &previous, nil)
        signal(SIGINT, oldHandler)
        let status = String(decoding: ChildProcess.readToEnd(process.output!), as: UTF8.self)
        #expect(status.contains("SigBlk:\t0000000000000000"), "\(status)")
        #expect(await process.waitForExit() == .exited(0))
        // Started with SIGTERM ignored by the parent: once it runs (it says so), SIGTERM ends it.
        let ignored = signal(SIGTERM, SIG_IGN)
        let sleeper = try ChildProcess("/bin/sh", ["-c", "echo ready; exec sleep 30"], output: .pipe)
        signal(SIGTERM, ignored)
        var said: [UInt8] = []
        while !said.contains(UInt8(ascii: "\n")) {
            let piece = ChildProcess.read(sleeper.output!)
            if piece.isEmpty { break }
            said += piece
        }
        #expect(said == Array("ready\n".utf8))
        sleeper.send(SIGTERM)
        #expect(await sleeper.waitForExit() == .signaled(SIGTERM))
    }

    @Test("the child inherits no descriptor but its three standard streams")
    func noInheritedDescriptors() async throws {
        // A descriptor without close-on-exec, as a library might leave one.
        let leaked = open("/dev/null", O_RDONLY)
        #expect(leaked > 2)
        defer { close(leaked) }
        let process = try ChildProcess("/bin/ls", ["/proc/self/fd"], output: .pipe)
        let listed = String(decoding: ChildProcess.readToEnd(process.output!), as: UTF8.self)
            .split(separator: "\n").compactMap { Int32($0) }
        #expect(await process.waitForExit() == .exited(0))
        // 0, 1, 2 and the one `ls` opened to read the folder.
        #expect(listed.count == 4)
        #expect(listed.filter { $0 > 2 }.count == 1)
    }

    @Test("a program that cannot start is an error")
    func missingProgram() throws {
        #expect(throws: IOError.self) {
            _ = try ChildProcess("/nonexistent/program", output: .pipe, error: .pipe)
        }
    }
}
