@testable import BirdRealtime
import BmobRealtime
import BmobTesting
import BmobWire
import Foundation

/// The transports of a client's attempts, and a manual clock for its timers.
///
/// Invariant for `@unchecked Sendable`: `made` and `failing` are read and written only while `lock` is held.
final class FakeEdge: @unchecked Sendable {
    private let lock = NSLock()
    private var made: [ScriptedTransport] = []
    private var failing = false
    let clock = ManualSleeper()

    /// Whether new transports fail to connect.
    var connectionsFail: Bool {
        get { lock.withLock { failing } }
        set { lock.withLock { failing = newValue } }
    }

    var transports: [ScriptedTransport] { lock.withLock { made } }

    func environment(random: @escaping @Sendable () -> Double = { Double.random(in: 0...1) }) -> BirdRealtimeEnvironment
    {
        BirdRealtimeEnvironment(
            makeTransport: { [self] in
                let transport = lock.withLock { () -> ScriptedTransport in
                    let transport = ScriptedTransport(failsToConnect: failing)
                    made.append(transport)
                    return transport
                }
                return transport
            },
            sleep: { [clock] duration, timer in try await clock.sleep(duration, timer) },
            random: random)
    }

    /// Waits for the `index`th transport to be connected.
    func transport(_ index: Int) async throws -> ScriptedTransport {
        try await waitUntil(timeout: 20, "transport \(index)") {
            let transports = self.transports
            return transports.count > index && transports[index].connected ? transports[index] : nil
        }
    }
}
