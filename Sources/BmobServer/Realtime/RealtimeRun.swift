/// One key's events on their way to the listeners the key had when the run began, walked in a circle a
/// step at a time. Loop-confined, like the ``RealtimeLoopIndex`` that owns it.
///
/// Each listener is called with every payload it does not have yet, joined into one call
/// (``RealtimePayload/joined(_:)``). An event that joins the run while the walk is under way (``append(_:)``)
/// reaches the listeners not yet visited together with the earlier ones, and those already visited on the
/// walk's next lap, so it reaches everyone within one lap of its arrival instead of waiting for the lap in
/// progress to end.
final class RealtimeRun<Key: Hashable & Sendable, Listener: RealtimeListener> {
    typealias Payload = Listener.Payload

    let key: Key
    /// The key's listener-set version when the run began (``RealtimeLoopIndex``): events may join the run only
    /// while the set is unchanged, so a listener that came later gets them in a run of its own, and one that
    /// left gets none of them.
    let membershipVersion: Int
    private let listeners: [Listener]
    /// The run's payloads from event number `base` on; listeners have at least `base` of them.
    private var payloads: [Payload]
    private var base = 0
    /// How many of the run's events each listener has.
    private var delivered: [Int]
    /// The next listener to visit.
    private var position = 0
    /// Listeners that lack at least one payload.
    private var behind: Int
    /// The event count when the walk last passed the first listener: every listener has at least this many.
    private var totalAtLap = 0
    /// Joined payloads by the event number they start at, while no event joins.
    private var joined: [Int: Payload] = [:]

    init(key: Key, membershipVersion: Int, listeners: [Listener], payloads: [Payload]) {
        self.key = key
        self.membershipVersion = membershipVersion
        self.listeners = listeners
        self.payloads = payloads
        self.delivered = Array(repeating: 0, count: listeners.count)
        self.behind = payloads.isEmpty ? 0 : listeners.count
    }

    /// Whether every listener has every payload.
    var isDone: Bool { behind == 0 }

    private var total: Int { base + payloads.count }

    /// Adds an event for the same listeners.
    func append(_ payload: Payload) {
        payloads.append(payload)
        behind = listeners.count
        joined.removeAll(keepingCapacity: true)
    }

    /// Calls up to `budget` listeners that lack payloads.
    ///
    /// - Returns: the calls made.
    func walk(budget: Int) -> Int {
        var calls = 0
        while calls < budget && behind > 0 {
            let has = delivered[position]
            if has < total {
                listeners[position].realtimeEvent(payloads(from: has))
                delivered[position] = total
                behind -= 1
                calls += 1
            }
            position += 1
            if position == listeners.count {
                position = 0
                // A lap visited everyone, so everyone has what there was when it began.
                if totalAtLap > base {
                    payloads.removeFirst(totalAtLap - base)
                    base = totalAtLap
                }
                totalAtLap = total
            }
        }
        return calls
    }

    /// The payloads from event number `first` on, as one.
    private func payloads(from first: Int) -> Payload {
        let start = first - base
        if start == payloads.count - 1 { return payloads[start] }
        if let cached = joined[first] { return cached }
        let payload = Payload.joined(payloads[start...])
        joined[first] = payload
        return payload
    }
}
