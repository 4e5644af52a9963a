import BmobSDK
import Foundation

/// A delegate that records its calls in order, for the realtime behaviour tests.
@MainActor
final class RealtimeRecorder: BmobEventDelegate {
    enum Call: Equatable {
        case connected
        case ready
        case message(BmobEventMessage)
        case failed(String)
        case disconnected(failed: Bool)
    }

    private(set) var calls: [Call] = []
    /// When each ready call arrived.
    private(set) var readyTimes: [ContinuousClock.Instant] = []

    func bmobEventDidConnect(_ event: BmobEvent) { calls.append(.connected) }
    func bmobEventCanStartListen(_ event: BmobEvent) {
        calls.append(.ready)
        readyTimes.append(.now)
    }
    func bmobEvent(_ event: BmobEvent, didReceiveMessage message: BmobEventMessage) { calls.append(.message(message)) }
    func bmobEvent(_ event: BmobEvent, didFailWithError error: any Error) { calls.append(.failed(String(describing: error))) }
    func bmobEventDidDisconnect(_ event: BmobEvent, error: (any Error)?) { calls.append(.disconnected(failed: error != nil)) }

    var messages: [BmobEventMessage] {
        calls.compactMap { if case .message(let message) = $0 { message } else { nil } }
    }

    /// Waits (on the main actor, letting callbacks run) until `predicate` holds.
    func wait(timeout: Double = 10, _ what: String, until predicate: (RealtimeRecorder) -> Bool) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !predicate(self) {
            guard Date() < deadline else { throw FixtureError("timed out waiting for \(what); calls: \(calls)") }
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}
