import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP request over `URLSession` that Swift `Task` cancellation stops at once: the data task is
/// cancelled, and the call throws `CancellationError`.
enum HTTPExchange {
    /// Sends `request` and returns the body and response.
    ///
    /// - Throws: `CancellationError` when the calling task is cancelled; the `URLError` otherwise.
    static func send(_ request: URLRequest, session: URLSession = .shared) async throws -> (Data, HTTPURLResponse) {
        try Task.checkCancellation()
        let handle = TaskHandle()
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: Continuation) in
                    let task = session.dataTask(with: request) { data, response, error in
                        if let error {
                            continuation.resume(throwing: error)
                        } else if let response {
                            continuation.resume(returning: (data ?? Data(), response))
                        } else {
                            continuation.resume(throwing: URLError(.badServerResponse))
                        }
                    }
                    handle.start(task)
                }
            } onCancel: {
                handle.cancel()
            }
        } catch {
            // A cancelled data task reports `URLError.cancelled`.
            try Task.checkCancellation()
            throw error
        }
        try Task.checkCancellation()
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        return (data, http)
    }

    private typealias Continuation = CheckedContinuation<(Data, URLResponse), any Error>

    /// The data task of one exchange, which cancellation may reach before or after it starts.
    ///
    /// Thread safety: `task` and `cancelled` are touched only while `lock` is held, which makes the
    /// `@unchecked Sendable` sound.
    private final class TaskHandle: @unchecked Sendable {
        private let lock = NSLock()
        private var task: URLSessionDataTask?
        private var cancelled = false

        /// Starts `task`, or cancels it at once when the exchange was already cancelled (its completion
        /// handler then reports the cancellation).
        func start(_ task: URLSessionDataTask) {
            let cancelled = lock.withLock {
                self.task = task
                return self.cancelled
            }
            task.resume()
            if cancelled { task.cancel() }
        }

        /// Cancels the task, now or when it starts.
        func cancel() {
            let task = lock.withLock {
                cancelled = true
                return self.task
            }
            task?.cancel()
        }
    }
}
