import BmobRealtime

/// Records when the server allowed subscriptions (`bmobEventCanStartListen`): the SDK sends the registered ones
/// right then, so the test writes its record after that.
@MainActor
final class ChatReadiness: BmobEventDelegate {
    private(set) var isReady = false
    private(set) var failures: [String] = []

    func bmobEventCanStartListen(_ event: BmobEvent) { isReady = true }
    func bmobEvent(_ event: BmobEvent, didFailWithError error: any Error) { failures.append(String(describing: error)) }
}
