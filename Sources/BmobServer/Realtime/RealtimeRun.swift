/// One key's events on their way to the listeners the key had when the run began, walked in a circle a
/// step at a time. Loop-confined, like the ``RealtimeLoopIndex`` that owns it.
///
/// Each listener is called with every frame it does not have yet, joined into one call. An event that joins
/// the run while the walk is under way (``append(_:)``) reaches the listeners not yet visited together with
/// the earlier ones, and those already visited on the walk's next lap, so it reaches everyone within one lap
/// of its arrival instead of waiting for the lap in progress to end.
final class RealtimeRun {
    let appId: String
    let key: RealtimeSubscriptionKey
    /// The key's listener-set version when the run began (``RealtimeLoopIndex``): events may join the run only
    /// while the set is unchanged, so a listener that came later gets them in a run of its own, and one that
    /// left gets none of them.
    let membershipVersion: Int
    private let listeners: [any RealtimeListener]
    /// The run's frames from event number `base` on; listeners have at least `base` of them.
    private var frames: [[UInt8]]
    private var base = 0
    /// How many of the run's events each listener has.
    private var delivered: [Int]
    /// The next listener to visit.
    private var position = 0
    /// Listeners that lack at least one frame.
    private var behind: Int
    /// The event count when the walk last passed the first listener: every listener has at least this many.
    private var totalAtLap = 0
    /// Joined frames by the event number they start at, while no event joins.
    private var joined: [Int: [UInt8]] = [:]

    init(
        appId: String, key: RealtimeSubscriptionKey, membershipVersion: Int, listeners: [any RealtimeListener],
        frames: [[UInt8]]
    ) {
        self.appId = appId
        self.key = key
        self.membershipVersion = membershipVersion
        self.listeners = listeners
        self.frames = frames
        self.delivered = Array(repeating: 0, count: listeners.count)
        self.behind = frames.isEmpty ? 0 : listeners.count
    }

    /// Whether every listener has every frame.
    var isDone: Bool { behind == 0 }

    private var total: Int { base + frames.count }

    /// Adds an event for the same listeners.
    func append(_ frame: [UInt8]) {
        frames.append(frame)
        behind = listeners.count
        joined.removeAll(keepingCapacity: true)
    }

    /// Calls up to `budget` listeners that lack frames.
    ///
    /// - Returns: the calls made.
    func walk(budget: Int) -> Int {
        var calls = 0
        while calls < budget && behind > 0 {
            let has = delivered[position]
            if has < total {
                listeners[position].realtimeEvent(encodedFrame: frames(from: has))
                delivered[position] = total
                behind -= 1
                calls += 1
            }
            position += 1
            if position == listeners.count {
                position = 0
                // A lap visited everyone, so everyone has what there was when it began.
                if totalAtLap > base {
                    frames.removeFirst(totalAtLap - base)
                    base = totalAtLap
                }
                totalAtLap = total
            }
        }
        return calls
    }

    /// The frames from event number `first` on, as one array.
    private func frames(from first: Int) -> [UInt8] {
        let start = first - base
        if start == frames.count - 1 { return frames[start] }
        if let cached = joined[first] { return cached }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(frames[start...].reduce(0) { $0 + $1.count })
        for frame in frames[start...] { bytes.append(contentsOf: frame) }
        joined[first] = bytes
        return bytes
    }
}
