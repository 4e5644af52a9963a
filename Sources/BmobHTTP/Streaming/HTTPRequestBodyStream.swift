import BmobIO

/// The body of a request on a route that streams it (``HTTPRequestBodyPolicy/streamed``), as it arrives: an
/// async sequence of byte chunks with backpressure.
///
/// ```swift
/// var received = 0
/// for try await chunk in request.bodyStream! {
///     received += chunk.count   // the connection reads more only while the handler keeps up
/// }
/// ```
///
/// The connection counts the bytes handed over and not yet taken; past a small bound it stops reading the
/// socket until the handler has taken most of them, so a slow handler slows the client down instead of
/// filling memory. Iteration throws ``HTTPStreamError`` when the body breaks off: over its limit, timed out,
/// malformed, or the client gone. Cancelling the iterating task ends a wait with `CancellationError`.
///
/// Threading rules:
/// 1. One consumer: iterate once, from one task at a time.
/// 2. The producer side (`yield`, `finish`, `fail`) is the connection's, on its loop.
package final class HTTPRequestBodyStream: AsyncSequence, @unchecked Sendable {
    // Invariant: `chunks`, `nextChunk`, `end`, `waiter` and `demandSignalled` are read and written only under
    // `lock`; `consumed` and `demanded` are set in `init` and never change.
    /// A chunk of the body, as it was read.
    package typealias Element = [UInt8]
    /// ``HTTPStreamError``, or `CancellationError`.
    package typealias Failure = any Error

    private let lock = Lock()
    private var chunks: [[UInt8]] = []
    /// Index of the next chunk to hand out; chunks before it are taken.
    private var nextChunk = 0
    private var end: Result<Void, HTTPStreamError>?
    private var waiter: CheckedContinuation<[UInt8]?, any Error>?
    /// Told how many bytes the consumer took, so that the connection can read again.
    private let consumed: @Sendable (Int) -> Void
    /// Told once, when the consumer first waits for a chunk (a client waiting for `100 Continue` gets it then).
    private let demanded: @Sendable () -> Void
    private var demandSignalled = false

    /// A stream whose consumer reports each chunk it takes to `consumed`, and its first wait for one to
    /// `demanded`, from the consumer's thread.
    init(consumed: @escaping @Sendable (Int) -> Void, demanded: @escaping @Sendable () -> Void) {
        self.consumed = consumed
        self.demanded = demanded
    }

    // MARK: - Producer (the connection)

    /// Hands a chunk to the consumer.
    func yield(_ chunk: [UInt8]) {
        let waiting: CheckedContinuation<[UInt8]?, any Error>? = lock.withLock {
            guard end == nil else { return nil }
            if let waiter {
                self.waiter = nil
                return waiter
            }
            chunks.append(chunk)
            return nil
        }
        guard let waiting else { return }
        consumed(chunk.count)
        waiting.resume(returning: chunk)
    }

    /// The body is complete: the consumer gets the chunks left, then the end.
    func finish() {
        end(with: .success(()))
    }

    /// The body broke off: the consumer gets the chunks left, then `error`.
    func fail(_ error: HTTPStreamError) {
        end(with: .failure(error))
    }

    private func end(with result: Result<Void, HTTPStreamError>) {
        let waiting: CheckedContinuation<[UInt8]?, any Error>? = lock.withLock {
            guard end == nil else { return nil }
            end = result
            defer { waiter = nil }
            return waiter
        }
        switch result {
        case .success: waiting?.resume(returning: nil)
        case .failure(let error): waiting?.resume(throwing: error)
        }
    }

    // MARK: - Consumer

    /// The next chunk, or `nil` at the end of the body.
    ///
    /// - Throws: ``HTTPStreamError`` when the body broke off; `CancellationError` when the task is cancelled
    ///   while waiting.
    package func next() async throws -> [UInt8]? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[UInt8]?, any Error>) in
                enum Outcome {
                    case chunk([UInt8])
                    case end(Result<Void, HTTPStreamError>)
                    case cancelled
                    case wait(firstDemand: Bool)
                }
                let outcome: Outcome = lock.withLock {
                    if nextChunk < chunks.count {
                        let chunk = chunks[nextChunk]
                        nextChunk += 1
                        if nextChunk == chunks.count {
                            chunks.removeAll(keepingCapacity: true)
                            nextChunk = 0
                        }
                        return .chunk(chunk)
                    }
                    if let end { return .end(end) }
                    if Task.isCancelled { return .cancelled }
                    precondition(waiter == nil, "an HTTPRequestBodyStream is read from two tasks at once")
                    waiter = continuation
                    defer { demandSignalled = true }
                    return .wait(firstDemand: !demandSignalled)
                }
                switch outcome {
                case .chunk(let chunk):
                    consumed(chunk.count)
                    continuation.resume(returning: chunk)
                case .end(.success):
                    continuation.resume(returning: nil)
                case .end(.failure(let error)):
                    continuation.resume(throwing: error)
                case .cancelled:
                    continuation.resume(throwing: CancellationError())
                case .wait(let firstDemand):
                    if firstDemand { demanded() }
                }
            }
        } onCancel: {
            let waiting: CheckedContinuation<[UInt8]?, any Error>? = lock.withLock {
                defer { waiter = nil }
                return waiter
            }
            waiting?.resume(throwing: CancellationError())
        }
    }

    /// Reads the rest of the body into one array.
    ///
    /// - Parameter maxBytes: the most bytes to collect; a longer body throws ``HTTPStreamError/Code-swift.struct/bodyTooLarge``.
    /// - Throws: ``HTTPStreamError``, or `CancellationError`.
    package func collect(upTo maxBytes: Int) async throws -> [UInt8] {
        var bytes: [UInt8] = []
        while let chunk = try await next() {
            guard bytes.count + chunk.count <= maxBytes else {
                throw HTTPStreamError(.bodyTooLarge, "request body is larger than \(maxBytes) bytes")
            }
            bytes += chunk
        }
        return bytes
    }

    /// Iterates the chunks; see ``HTTPRequestBodyStream``.
    package struct AsyncIterator: AsyncIteratorProtocol {
        fileprivate let stream: HTTPRequestBodyStream

        /// The next chunk, or `nil` at the end of the body; see ``HTTPRequestBodyStream/next()``.
        package mutating func next() async throws -> [UInt8]? {
            try await stream.next()
        }
    }

    /// An iterator over the chunks; make one per stream.
    package func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(stream: self)
    }
}
