/// A connected, non-blocking TCP socket on one event loop: reads into handler calls, queues writes that
/// the kernel does not take at once (partial writes), and closes cleanly.
///
/// Loop-confined: every method must be called on ``loop``.
package final class Channel: Selectable {
    private enum State {
        case open
        /// Flushing, then half-closing; further reads are discarded until EOF or the linger timeout.
        case closingAfterWrites
        case lingering
        case closed
    }

    package let loop: EventLoop
    package let fd: Int32
    /// The peer, when known.
    package let remoteAddress: SocketAddress?
    package var handler: (any ChannelHandler)?
    private var state = State.open
    private var writeQueue: [[UInt8]] = []
    private var writeOffset = 0
    private var interest: SelectorEventSet = []
    private var readingPaused = false
    private var registered = false
    private var lingerNanoseconds: UInt64 = 2_000_000_000
    /// Bytes queued but not yet written.
    package private(set) var pendingWriteBytes = 0
    /// Reads done per readiness event before yielding to other descriptors.
    private static let readsPerEvent = 4

    /// Takes ownership of `fd`, which must be a connected non-blocking socket.
    package init(fd: Int32, loop: EventLoop, remoteAddress: SocketAddress?) {
        self.fd = fd
        self.loop = loop
        self.remoteAddress = remoteAddress
    }

    /// Whether the channel has not closed yet.
    package var isOpen: Bool {
        if case .closed = state { false } else { true }
    }

    /// Whether ``closeAfterPendingWrites(lingerNanoseconds:)`` was called.
    package var isClosing: Bool {
        switch state {
        case .open: false
        default: true
        }
    }

    /// Registers with the loop and starts reading.
    package func activate() throws(IOError) {
        loop.assertInEventLoop()
        interest = .readable
        try loop.register(fd: fd, interest: interest, handler: self)
        registered = true
    }

    // MARK: - Reading

    /// Stops reading (backpressure); bytes wait in the kernel.
    package func pauseReading() {
        guard !readingPaused else { return }
        readingPaused = true
        updateInterest()
    }

    package func resumeReading() {
        guard readingPaused else { return }
        readingPaused = false
        updateInterest()
    }

    package func selectorEvent(_ events: SelectorEventSet) {
        if events.contains(.writable) {
            flush()
        }
        guard events.contains(.readable), isOpen else { return }
        if readingPaused, state != .lingering {
            // Not watching for input, yet told of a hangup: the peer reset the connection or closed both ways,
            // which selectors report whatever the interest. Nothing can be read or written any more, and leaving
            // it would have a level-triggered selector report it on every poll.
            if events.contains(.hangup) { close() }
            return
        }
        readAvailable()
    }

    private func readAvailable() {
        let buffer = loop.readBuffer
        for _ in 0..<Self.readsPerEvent {
            guard isOpen, !readingPaused || state == .lingering else { return }
            let result: IOResult<Int>
            do {
                result = try Posix.read(fd, into: buffer)
            } catch {
                close()
                return
            }
            switch result {
            case .wouldBlock:
                return
            case .processed(0):
                inputClosed()
                return
            case .processed(let count):
                if state == .open {
                    handler?.channelRead(self, UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
                }
                if count < buffer.count { return }
            }
        }
    }

    private func inputClosed() {
        switch state {
        case .open:
            // Stop watching for reads: a level-triggered selector would report EOF forever.
            readingPaused = true
            updateInterest()
            handler?.channelInputClosed(self)
        case .closingAfterWrites:
            readingPaused = true
            updateInterest()
        case .lingering:
            close()
        case .closed:
            break
        }
    }

    // MARK: - Writing

    /// Sends `bytes`, queueing whatever the kernel does not take now.
    package func write(_ bytes: [UInt8]) {
        loop.assertInEventLoop()
        guard state == .open || state == .closingAfterWrites, !bytes.isEmpty else { return }
        if writeQueue.isEmpty {
            // Fast path: most responses fit the socket buffer and never touch the queue.
            let result: IOResult<Int>
            do {
                result = try bytes.withUnsafeBytes { buffer throws(IOError) in try Posix.send(fd, buffer) }
            } catch {
                close()
                return
            }
            if case .processed(let written) = result, written == bytes.count {
                return
            }
            if case .processed(let written) = result {
                writeOffset = written
                pendingWriteBytes += bytes.count - written
            } else {
                pendingWriteBytes += bytes.count
            }
            writeQueue.append(bytes)
            updateInterest()
            return
        }
        writeQueue.append(bytes)
        pendingWriteBytes += bytes.count
    }

    private func flush() {
        while let first = writeQueue.first {
            let result: IOResult<Int>
            do {
                result = try first.withUnsafeBytes { buffer throws(IOError) in
                    try Posix.send(fd, UnsafeRawBufferPointer(rebasing: buffer[writeOffset...]))
                }
            } catch {
                close()
                return
            }
            switch result {
            case .wouldBlock:
                updateInterest()
                return
            case .processed(let written):
                pendingWriteBytes -= written
                writeOffset += written
                if writeOffset == first.count {
                    writeQueue.removeFirst()
                    writeOffset = 0
                }
            }
        }
        updateInterest()
        if state == .closingAfterWrites {
            startLingering()
        } else if state == .open {
            handler?.channelWritesDrained(self)
        }
    }

    private func updateInterest() {
        guard registered, isOpen else { return }
        var wanted: SelectorEventSet = []
        if !readingPaused || state == .lingering { wanted.insert(.readable) }
        if !writeQueue.isEmpty { wanted.insert(.writable) }
        guard wanted != interest else { return }
        interest = wanted
        do {
            try loop.reregister(fd: fd, interest: wanted)
        } catch {
            close()
        }
    }

    // MARK: - Closing

    /// Writes what is queued, half-closes, and discards input until the peer closes or `lingerNanoseconds`
    /// pass. Closing only after the peer saw our FIN keeps the kernel from answering its unread bytes with
    /// a reset that would destroy the response we just sent.
    package func closeAfterPendingWrites(lingerNanoseconds: UInt64 = 2_000_000_000) {
        loop.assertInEventLoop()
        guard state == .open else { return }
        self.lingerNanoseconds = lingerNanoseconds
        state = .closingAfterWrites
        if writeQueue.isEmpty {
            startLingering()
        }
    }

    private func startLingering() {
        guard state == .closingAfterWrites else { return }
        state = .lingering
        Posix.shutdownWrite(fd)
        updateInterest()
        loop.scheduleTimer(afterNanoseconds: lingerNanoseconds) { [weak self] in
            self?.close()
        }
    }

    /// Closes now, dropping queued writes.
    package func close() {
        guard isOpen else { return }
        state = .closed
        if registered {
            loop.deregister(fd: fd)
            registered = false
        }
        Posix.close(fd)
        writeQueue.removeAll()
        pendingWriteBytes = 0
        let handler = self.handler
        self.handler = nil
        handler?.channelClosed(self)
    }
}

@available(*, unavailable, message: "a Channel is confined to its event loop; wrap it in LoopBound")
extension Channel: Sendable {}
