import Synchronization

/// Named gates that handlers wait at until a test opens them: "slow" answers without sleeping.
final class TestGates: Sendable {
    private struct Gate {
        var open = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let gates = Mutex<[String: Gate]>([:])

    /// Returns once the gate `name` is open.
    func wait(_ name: String) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let isOpen = gates.withLock { gates in
                if gates[name, default: Gate()].open { return true }
                gates[name, default: Gate()].waiters.append(continuation)
                return false
            }
            if isOpen { continuation.resume() }
        }
    }

    /// Opens the gate `name`, now and for later arrivals.
    func open(_ name: String) {
        let waiters = gates.withLock { gates in
            defer { gates[name] = Gate(open: true) }
            return gates[name]?.waiters ?? []
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Opens every gate something waits at, so that a failed test's handlers can finish.
    func openAll() {
        let names = gates.withLock { Array($0.keys) }
        for name in names { open(name) }
    }

    /// How many handlers wait at the gate `name`.
    func waiting(_ name: String) -> Int {
        gates.withLock { $0[name]?.waiters.count ?? 0 }
    }

    /// Waits (checking every 5 ms, for up to `seconds`) until a handler waits at the gate `name`.
    func waitForArrival(_ name: String, seconds: Double = 60) async -> Bool {
        let deadline = ContinuousClock.now.advanced(by: .milliseconds(Int(seconds * 1000)))
        while waiting(name) == 0 {
            guard ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return true
    }
}
