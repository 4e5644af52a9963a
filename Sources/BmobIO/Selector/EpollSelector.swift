#if os(Linux)
import CSystemShims

/// A ``Selector`` over Linux epoll, woken through an eventfd.
package final class EpollSelector: Selector {
    private let epollFD: Int32
    private let eventFD: Int32
    package let waker: SelectorWaker
    private static let wakeToken = UInt64.max
    private static let capacity = 256
    private var events = [UInt32](repeating: 0, count: EpollSelector.capacity)
    private var tokens = [UInt64](repeating: 0, count: EpollSelector.capacity)
    private var closed = false

    package init() throws(IOError) {
        let epollFD = CSystemShims_epoll_create()
        guard epollFD >= 0 else { throw IOError(errno: CSystemShims_errno(), function: "epoll_create1") }
        let eventFD = CSystemShims_eventfd()
        guard eventFD >= 0 else {
            Posix.close(epollFD)
            throw IOError(errno: CSystemShims_errno(), function: "eventfd")
        }
        self.epollFD = epollFD
        self.eventFD = eventFD
        self.waker = SelectorWaker(writeFD: eventFD, isEventFD: true)
        try control(CSystemShims_EPOLL_CTL_ADD, fd: eventFD, interest: .readable, token: Self.wakeToken)
    }

    deinit {
        close()
    }

    private func control(_ operation: Int32, fd: Int32, interest: SelectorEventSet, token: UInt64) throws(IOError) {
        // RDHUP (the peer's end of stream) only with input interest: it is level-triggered, so a descriptor whose
        // reading is paused would otherwise be reported on every poll until it resumed.
        var mask: UInt32 = 0
        if interest.contains(.readable) { mask |= CSystemShims_EPOLLIN | CSystemShims_EPOLLRDHUP }
        if interest.contains(.writable) { mask |= CSystemShims_EPOLLOUT }
        while CSystemShims_epoll_ctl(epollFD, operation, fd, mask, token) != 0 {
            let error = CSystemShims_errno()
            if error == EINTR { continue }
            throw IOError(errno: error, function: "epoll_ctl")
        }
    }

    package func register(fd: Int32, interest: SelectorEventSet, token: UInt64) throws(IOError) {
        try control(CSystemShims_EPOLL_CTL_ADD, fd: fd, interest: interest, token: token)
    }

    package func reregister(fd: Int32, interest: SelectorEventSet, token: UInt64) throws(IOError) {
        try control(CSystemShims_EPOLL_CTL_MOD, fd: fd, interest: interest, token: token)
    }

    package func deregister(fd: Int32) throws(IOError) {
        try control(CSystemShims_EPOLL_CTL_DEL, fd: fd, interest: [], token: 0)
    }

    package func whenReady(timeoutNanoseconds: UInt64?, _ body: (UInt64, SelectorEventSet) -> Void) throws(IOError) {
        let timeout = timeoutNanoseconds.map(\.selectorMilliseconds) ?? -1
        let count = events.withUnsafeMutableBufferPointer { events in
            tokens.withUnsafeMutableBufferPointer { tokens in
                CSystemShims_epoll_wait(epollFD, events.baseAddress, tokens.baseAddress, Int32(Self.capacity), timeout)
            }
        }
        if count < 0 {
            let error = CSystemShims_errno()
            if error == EINTR { return }
            throw IOError(errno: error, function: "epoll_wait")
        }
        for index in 0..<Int(count) {
            let token = tokens[index]
            if token == Self.wakeToken {
                var counter: UInt64 = 0
                _ = withUnsafeMutableBytes(of: &counter) { try? Posix.read(eventFD, into: $0) }
                continue
            }
            let mask = events[index]
            var ready: SelectorEventSet = []
            if mask & CSystemShims_EPOLLIN != 0 { ready.insert(.readable) }
            if mask & CSystemShims_EPOLLOUT != 0 { ready.insert(.writable) }
            if mask & (CSystemShims_EPOLLHUP | CSystemShims_EPOLLERR | CSystemShims_EPOLLRDHUP) != 0 {
                ready.formUnion([.hangup, .readable])
            }
            body(token, ready)
        }
    }

    package func close() {
        guard !closed else { return }
        closed = true
        Posix.close(epollFD)
        Posix.close(eventFD)
    }
}
#endif
