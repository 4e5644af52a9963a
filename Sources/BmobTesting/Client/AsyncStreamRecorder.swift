import Foundation

/// Reads an `AsyncStream` in a task and keeps every element, and whether the stream ended, for tests that
/// check what a stream delivered (SDK event streams, say) while other work goes on.
///
/// Invariant for `@unchecked Sendable`: `received` and `ended` are only touched while `lock` is held.
package final class AsyncStreamRecorder<Element: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var received: [Element] = []
    private var ended = false
    /// The reading task; cancel it to stop reading.
    package private(set) var task: Task<Void, Never>!

    package init(_ stream: AsyncStream<Element>) {
        task = Task { [self] in
            for await element in stream {
                lock.withLock { received.append(element) }
            }
            lock.withLock { ended = true }
        }
    }

    /// Everything received so far, in order.
    package var elements: [Element] { lock.withLock { received } }

    /// Whether the stream has finished.
    package var hasEnded: Bool { lock.withLock { ended } }

    /// Waits until `predicate` holds for the elements received so far, and returns them.
    ///
    /// - Throws: ``AsyncStreamRecorderTimeout`` naming `what` after `timeout` seconds.
    @discardableResult
    package func wait(timeout: Double = 10, _ what: String, until predicate: ([Element]) -> Bool) async throws -> [Element] {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let elements = self.elements
            if predicate(elements) { return elements }
            guard Date() < deadline else { throw AsyncStreamRecorderTimeout(what: what, received: elements.count) }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Waits for the stream to end.
    ///
    /// - Throws: ``AsyncStreamRecorderTimeout`` after `timeout` seconds.
    package func waitForEnd(timeout: Double = 10) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !hasEnded {
            guard Date() < deadline else { throw AsyncStreamRecorderTimeout(what: "the end of the stream", received: elements.count) }
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}

/// An ``AsyncStreamRecorder`` wait that timed out.
package struct AsyncStreamRecorderTimeout: Error, CustomStringConvertible {
    package var what: String
    package var received: Int
    package var description: String { "timed out waiting for \(what) (\(received) elements received)" }
}
