import BmobCore
import BmobRealtime
import Foundation

/// A delegate that records its calls, in order, checking each runs on the main queue.
@MainActor
final class RecordingDelegate: BmobEventDelegate {
    enum Call: Equatable {
        case connected
        case ready
        case message(BmobEventMessage)
        case failed(String)
        case disconnected(String?)
    }

    private(set) var calls: [Call] = []
    private(set) var offMainQueue = 0
    /// Set on the main queue, so a callback can tell it runs there (under `swift test` on Linux the main
    /// queue is not always drained by the process's first thread, so `Thread.isMainThread` cannot tell).
    private static let mainQueueKey: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    func bmobEventDidConnect(_ event: BmobEvent) { record(.connected) }
    func bmobEventCanStartListen(_ event: BmobEvent) { record(.ready) }
    func bmobEvent(_ event: BmobEvent, didReceiveMessage message: BmobEventMessage) { record(.message(message)) }
    func bmobEvent(_ event: BmobEvent, didFailWithError error: any Error) { record(.failed(String(describing: error))) }
    func bmobEventDidDisconnect(_ event: BmobEvent, error: (any Error)?) {
        record(.disconnected(error.map { String(describing: $0) }))
    }

    private func record(_ call: Call) {
        if DispatchQueue.getSpecific(key: Self.mainQueueKey) != true { offMainQueue += 1 }
        calls.append(call)
    }

    var messages: [BmobEventMessage] {
        calls.compactMap { if case .message(let message) = $0 { message } else { nil } }
    }
}
