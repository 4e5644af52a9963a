import BmobWire
import Foundation

/// A `presence-` channel: a private channel that also knows who is in it.
///
/// ```swift
/// guard let room = bird.subscribe("presence-room-42") as? PresenceChannel else { return }
/// room.bind(BirdProtocol.Event.subscriptionSucceeded) { _ in
///     print("me:", room.myId ?? "?", "members:", Array(room.members.keys))
/// }
/// ```
///
/// ``members`` and ``myId`` change on the delivery queue, just before the handlers of
/// ``BirdProtocol/Event/subscriptionSucceeded``, ``BirdProtocol/Event/memberAdded`` and
/// ``BirdProtocol/Event/memberRemoved`` run, so a handler sees the list that includes its event.
///
/// Invariant for `@unchecked Sendable`: `memberList` and `ownId` are read and written only while `lock` is held.
public final class PresenceChannel: BirdChannel, @unchecked Sendable {
    private let lock = NSLock()
    private var memberList: [String: JSONValue] = [:]
    private var ownId: String?

    /// This connection's member id on the channel: the `user_id` of the member data its authorization carried.
    public var myId: String? { lock.withLock { ownId } }

    /// The members, by member id; each value is the member's `user_info` as Foundation values (`NSNull` when it
    /// has none).
    public var members: [String: Any] {
        lock.withLock { memberList }.mapValues(BirdJSON.foundation)
    }

    override func apply(_ change: BirdConnectionStateMachine.PresenceChange) {
        lock.withLock {
            switch change {
            case .snapshot(let hash): memberList = hash
            case .added(let id, let info): memberList[id] = info ?? .null
            case .removed(let id): memberList[id] = nil
            }
        }
    }

    override func setMyId(_ id: String?) {
        lock.withLock { ownId = id }
    }

    /// Handlers of ``BirdProtocol/Event/subscriptionSucceeded`` receive the member dictionary.
    override func value(of event: String, _ data: JSONValue?) -> Any? {
        event == BirdProtocol.Event.subscriptionSucceeded ? members : super.value(of: event, data)
    }
}
