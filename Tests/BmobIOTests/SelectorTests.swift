import CSystemShims
import Testing

@testable import BmobIO

#if canImport(Glibc)
import Glibc
#endif

/// Both selector backends run the same tests: epoll is the Linux default, poll the portable fallback.
@Suite struct SelectorTests {
    static let kinds: [SelectorKind] = [.epoll, .poll]

    private func makePipe() -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        #expect(CSystemShims_pipe_nonblocking(&fds) == 0)
        return (fds[0], fds[1])
    }

    private func collect(_ selector: any Selector, timeoutMilliseconds: UInt64) throws -> [(UInt64, SelectorEventSet)] {
        var events: [(UInt64, SelectorEventSet)] = []
        try selector.whenReady(timeoutNanoseconds: timeoutMilliseconds * 1_000_000) { token, set in
            events.append((token, set))
        }
        return events
    }

    @Test(arguments: kinds)
    func reportsReadableDescriptorWithItsToken(kind: SelectorKind) throws {
        let selector = try kind.makeSelector()
        defer { selector.close() }
        let pipe = makePipe()
        defer { close(pipe.read); close(pipe.write) }
        try selector.register(fd: pipe.read, interest: .readable, token: 42)
        #expect(try collect(selector, timeoutMilliseconds: 10).isEmpty)
        var byte: UInt8 = 7
        #expect(write(pipe.write, &byte, 1) == 1)
        let events = try collect(selector, timeoutMilliseconds: 1000)
        #expect(events.count == 1)
        #expect(events.first?.0 == 42)
        #expect(events.first?.1.contains(.readable) == true)
    }

    @Test(arguments: kinds)
    func levelTriggeredUntilDrained(kind: SelectorKind) throws {
        let selector = try kind.makeSelector()
        defer { selector.close() }
        let pipe = makePipe()
        defer { close(pipe.read); close(pipe.write) }
        try selector.register(fd: pipe.read, interest: .readable, token: 1)
        var byte: UInt8 = 1
        _ = write(pipe.write, &byte, 1)
        #expect(try collect(selector, timeoutMilliseconds: 100).count == 1)
        #expect(try collect(selector, timeoutMilliseconds: 100).count == 1)
        _ = read(pipe.read, &byte, 1)
        #expect(try collect(selector, timeoutMilliseconds: 10).isEmpty)
    }

    @Test(arguments: kinds)
    func writableInterestAndReregister(kind: SelectorKind) throws {
        let selector = try kind.makeSelector()
        defer { selector.close() }
        let pipe = makePipe()
        defer { close(pipe.read); close(pipe.write) }
        try selector.register(fd: pipe.write, interest: [], token: 5)
        #expect(try collect(selector, timeoutMilliseconds: 10).isEmpty)
        try selector.reregister(fd: pipe.write, interest: .writable, token: 6)
        let events = try collect(selector, timeoutMilliseconds: 100)
        #expect(events.count == 1)
        #expect(events.first?.0 == 6)
        #expect(events.first?.1.contains(.writable) == true)
    }

    @Test(arguments: kinds)
    func deregisteredDescriptorIsNotReported(kind: SelectorKind) throws {
        let selector = try kind.makeSelector()
        defer { selector.close() }
        let pipe = makePipe()
        defer { close(pipe.read); close(pipe.write) }
        try selector.register(fd: pipe.read, interest: .readable, token: 1)
        try selector.deregister(fd: pipe.read)
        var byte: UInt8 = 1
        _ = write(pipe.write, &byte, 1)
        #expect(try collect(selector, timeoutMilliseconds: 20).isEmpty)
    }

    @Test(arguments: kinds)
    func hangupIsReportedWhenThePeerCloses(kind: SelectorKind) throws {
        let selector = try kind.makeSelector()
        defer { selector.close() }
        let pipe = makePipe()
        defer { close(pipe.read) }
        try selector.register(fd: pipe.read, interest: .readable, token: 3)
        close(pipe.write)
        let events = try collect(selector, timeoutMilliseconds: 1000)
        #expect(events.first?.1.contains(.readable) == true)
    }

    @Test(arguments: kinds)
    func wakerInterruptsAWaitFromAnotherThread(kind: SelectorKind) throws {
        let selector = try kind.makeSelector()
        defer { selector.close() }
        let waker = selector.waker
        let thread = BmobIO.Thread.spawn(name: "waker") {
            usleep(50_000)
            waker.wake()
        }
        let start = Posix.monotonicNanoseconds()
        let events = try collect(selector, timeoutMilliseconds: 10_000)
        let elapsed = Posix.monotonicNanoseconds() - start
        thread.join()
        #expect(events.isEmpty)
        #expect(elapsed < 5_000_000_000)
    }

    @Test(arguments: kinds)
    func timeoutReturnsWithoutEvents(kind: SelectorKind) throws {
        let selector = try kind.makeSelector()
        defer { selector.close() }
        let start = Posix.monotonicNanoseconds()
        #expect(try collect(selector, timeoutMilliseconds: 30).isEmpty)
        #expect(Posix.monotonicNanoseconds() - start >= 29_000_000)
    }

    @Test func pollSelectorKeepsTokensRightAfterRemovingFromTheMiddle() throws {
        let selector = try PollSelector()
        defer { selector.close() }
        let pipes = (0..<3).map { _ in makePipe() }
        defer { for pipe in pipes { close(pipe.read); close(pipe.write) } }
        for (index, pipe) in pipes.enumerated() {
            try selector.register(fd: pipe.read, interest: .readable, token: UInt64(index))
        }
        try selector.deregister(fd: pipes[0].read)
        var byte: UInt8 = 1
        _ = write(pipes[2].write, &byte, 1)
        let events = try collect(selector, timeoutMilliseconds: 1000)
        #expect(events.map(\.0) == [2])
    }
}
