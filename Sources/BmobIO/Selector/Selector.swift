/// Readiness notification over a set of descriptors: the only place BmobIO waits.
///
/// Threading: a selector belongs to one event loop thread. Every method except the ``waker``'s `wake()`
/// must be called on that thread, so the type is not `Sendable`; the waker is the one cross-thread door.
/// Registrations are level-triggered: a ready descriptor is reported again until it is drained.
package protocol Selector: AnyObject {
    /// Wakes a blocked ``whenReady(timeoutNanoseconds:_:)`` from any thread.
    var waker: SelectorWaker { get }

    /// Starts watching `fd` for `interest`; `token` comes back with its events.
    func register(fd: Int32, interest: SelectorEventSet, token: UInt64) throws(IOError)

    /// Changes the interest (and token) of a registered descriptor.
    func reregister(fd: Int32, interest: SelectorEventSet, token: UInt64) throws(IOError)

    /// Stops watching `fd`. Call before closing the descriptor.
    func deregister(fd: Int32) throws(IOError)

    /// Blocks until a descriptor is ready, the waker fires, or the timeout passes (`nil`: no timeout),
    /// then calls `body` once per ready descriptor. `body` may register and deregister descriptors.
    func whenReady(timeoutNanoseconds: UInt64?, _ body: (UInt64, SelectorEventSet) -> Void) throws(IOError)

    /// Releases the selector's descriptors.
    func close()
}

/// The kind of selector an event loop uses.
package enum SelectorKind: Sendable, Hashable {
    /// Linux epoll with an eventfd waker.
    case epoll
    /// POSIX `poll` with a self-pipe waker; works everywhere and is tested on Linux too.
    case poll

    /// epoll on Linux, poll elsewhere.
    package static var platformDefault: SelectorKind {
        #if os(Linux)
        .epoll
        #else
        .poll
        #endif
    }

    /// Creates a selector of this kind.
    package func makeSelector() throws(IOError) -> any Selector {
        switch self {
        case .epoll:
            #if os(Linux)
            return try EpollSelector()
            #else
            return try PollSelector()
            #endif
        case .poll:
            return try PollSelector()
        }
    }
}

/// Timeouts in milliseconds, rounded up so a timer never fires early.
extension UInt64 {
    var selectorMilliseconds: Int32 {
        let milliseconds = (self + 999_999) / 1_000_000
        return Int32(clamping: milliseconds)
    }
}
