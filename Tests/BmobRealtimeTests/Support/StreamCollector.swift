import BmobRealtime
import BmobTesting

/// An event stream's recorder, with the waits the driver tests use.
typealias StreamCollector = AsyncStreamRecorder<BmobEventMessage>

extension AsyncStreamRecorder where Element == BmobEventMessage {
    /// The messages received so far.
    var messages: [BmobEventMessage] { elements }

    /// Waits until at least `count` messages arrived, and returns them.
    func waitForMessages(_ count: Int, timeout: Double = 10) async throws -> [BmobEventMessage] {
        try await wait(timeout: timeout, "\(count) stream messages") { $0.count >= count }
    }
}
