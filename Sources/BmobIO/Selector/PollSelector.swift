import CSystemShims

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A ``Selector`` over POSIX `poll`, woken through a self-pipe. Portable; O(n) per wait, which is fine for
/// the platforms without epoll and for tests.
package final class PollSelector: Selector {
    private var descriptors: [pollfd] = []
    private var tokens: [UInt64] = []
    /// Position of each registered descriptor in `descriptors`.
    private var positions: [Int32: Int] = [:]
    private let pipeRead: Int32
    private let pipeWrite: Int32
    package let waker: SelectorWaker
    private var closed = false

    package init() throws(IOError) {
        var fds: [Int32] = [0, 0]
        guard CSystemShims_pipe_nonblocking(&fds) == 0 else {
            throw IOError(errno: CSystemShims_errno(), function: "pipe")
        }
        pipeRead = fds[0]
        pipeWrite = fds[1]
        waker = SelectorWaker(writeFD: pipeWrite, isEventFD: false)
        descriptors.append(pollfd(fd: pipeRead, events: CSystemShims_POLLIN, revents: 0))
        tokens.append(UInt64.max)
        positions[pipeRead] = 0
    }

    deinit {
        close()
    }

    private static func mask(_ interest: SelectorEventSet) -> Int16 {
        var mask: Int16 = 0
        if interest.contains(.readable) { mask |= CSystemShims_POLLIN }
        if interest.contains(.writable) { mask |= CSystemShims_POLLOUT }
        return mask
    }

    package func register(fd: Int32, interest: SelectorEventSet, token: UInt64) throws(IOError) {
        guard positions[fd] == nil else { throw IOError(code: Code(rawValue: EEXIST), function: "poll register") }
        positions[fd] = descriptors.count
        descriptors.append(pollfd(fd: fd, events: Self.mask(interest), revents: 0))
        tokens.append(token)
    }

    package func reregister(fd: Int32, interest: SelectorEventSet, token: UInt64) throws(IOError) {
        guard let position = positions[fd] else { throw IOError(code: Code(rawValue: ENOENT), function: "poll reregister") }
        descriptors[position].events = Self.mask(interest)
        tokens[position] = token
    }

    package func deregister(fd: Int32) throws(IOError) {
        guard let position = positions.removeValue(forKey: fd) else {
            throw IOError(code: Code(rawValue: ENOENT), function: "poll deregister")
        }
        let last = descriptors.count - 1
        if position != last {
            descriptors[position] = descriptors[last]
            tokens[position] = tokens[last]
            positions[descriptors[position].fd] = position
        }
        descriptors.removeLast()
        tokens.removeLast()
    }

    package func whenReady(timeoutNanoseconds: UInt64?, _ body: (UInt64, SelectorEventSet) -> Void) throws(IOError) {
        let timeout = timeoutNanoseconds.map(\.selectorMilliseconds) ?? -1
        let count = descriptors.withUnsafeMutableBufferPointer { buffer in
            poll(buffer.baseAddress, nfds_t(buffer.count), timeout)
        }
        if count < 0 {
            let error = CSystemShims_errno()
            if error == EINTR { return }
            throw IOError(errno: error, function: "poll")
        }
        guard count > 0 else { return }
        // Collect first: `body` may register or deregister, which reorders the arrays.
        var ready: [(UInt64, SelectorEventSet)] = []
        for index in descriptors.indices where descriptors[index].revents != 0 {
            let revents = descriptors[index].revents
            descriptors[index].revents = 0
            if descriptors[index].fd == pipeRead {
                var scratch = [UInt8](repeating: 0, count: 64)
                while case .processed(let read)? = scratch.withUnsafeMutableBytes({ try? Posix.read(pipeRead, into: $0) }),
                    read > 0
                {}
                continue
            }
            var events: SelectorEventSet = []
            if revents & CSystemShims_POLLIN != 0 { events.insert(.readable) }
            if revents & CSystemShims_POLLOUT != 0 { events.insert(.writable) }
            if revents & (CSystemShims_POLLHUP | CSystemShims_POLLERR | CSystemShims_POLLNVAL) != 0 {
                events.formUnion([.hangup, .readable])
            }
            ready.append((tokens[index], events))
        }
        for (token, events) in ready {
            body(token, events)
        }
    }

    package func close() {
        guard !closed else { return }
        closed = true
        Posix.close(pipeRead)
        Posix.close(pipeWrite)
    }

    private typealias Code = IOError.Code
}
