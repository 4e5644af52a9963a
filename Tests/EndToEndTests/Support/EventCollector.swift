import BmobSDK
import BmobTesting

/// An event stream's recorder, with the lookups the realtime samples use.
typealias EventCollector = AsyncStreamRecorder<BmobEventMessage>

extension AsyncStreamRecorder where Element == BmobEventMessage {
    /// The messages received so far.
    var messages: [BmobEventMessage] { elements }

    /// The messages of `className` whose data has `field` equal to `value`.
    func messages(className: String, field: String, equalTo value: String) -> [BmobEventMessage] {
        messages.filter { $0.className == className && ($0.data?[field] as? String) == value }
    }
}

extension BmobEventMessage {
    /// A short description for failure messages.
    var rawValueText: String { "\(action ?? "?") \(className ?? "?") \(objectId ?? "?")" }
}
