import BmobIO
import BmobWire

/// Failed console admin sign-ins, kept in memory by this node: after ``AccountLimits/loginFreeFailures`` from
/// one client address each further attempt from it waits, doubling up to ``AccountLimits/loginMaxDelaySeconds``;
/// after ``AccountLimits/loginAccountFreeFailures`` from all addresses together, every address without a recent
/// success waits up to ``AccountLimits/loginAccountMaxDelaySeconds`` (the rules of failed logins, for the one
/// admin account). A success forgets its address's failures. At most ``maximumAddresses`` addresses are kept;
/// past that the one whose latest failure is oldest is forgotten first.
final class ConsoleSignInLimiter: Sendable {
    private struct State {
        var failures: [String: [Int64]] = [:]
        var all: [Int64] = []
        /// Addresses that signed in, with the time, exempt from the shared count for the failure window.
        var trusted: [String: Int64] = [:]
    }

    private let limits: AccountLimits
    private let state = LockedValue(State())
    /// Client addresses remembered at most.
    static let maximumAddresses = 10_000
    /// Failures remembered per address (and in all) at most: past the cap the wait no longer grows.
    static let maximumFailures = 64

    init(limits: AccountLimits) {
        self.limits = limits
    }

    /// Milliseconds the attempt from `client` must wait, or `nil` when it may go on.
    func wait(client: String, now: Int64) -> Int64? {
        let since = now - limits.loginFailureWindowMilliseconds
        return state.withLock { state in
            let own = (state.failures[client] ?? []).filter { $0 > since }
            var longest = limits.loginPairBackoff.wait(failures: own, now: now)
            if (state.trusted[client] ?? .min) <= since {
                let shared = limits.loginAccountBackoff.wait(failures: state.all.filter { $0 > since }, now: now)
                if let shared, shared > longest ?? 0 { longest = shared }
            }
            return longest
        }
    }

    /// Counts a failed attempt from `client`.
    func recordFailure(client: String, now: Int64) {
        let since = now - limits.loginFailureWindowMilliseconds
        state.withLock { state in
            if state.failures[client] == nil, state.failures.count >= Self.maximumAddresses {
                state.failures = state.failures.filter { $0.value.last.map { $0 > since } ?? false }
                if state.failures.count >= Self.maximumAddresses,
                    let oldest = state.failures.min(by: { ($0.value.last ?? 0) < ($1.value.last ?? 0) })?.key
                {
                    state.failures[oldest] = nil
                }
            }
            state.failures[client, default: []].append(now)
            if state.failures[client]!.count > Self.maximumFailures { state.failures[client]!.removeFirst() }
            state.all.append(now)
            if state.all.count > Self.maximumFailures { state.all.removeFirst() }
        }
    }

    /// A successful sign-in from `client`: its failures are forgotten and it is trusted for the failure window.
    func recordSuccess(client: String, now: Int64) {
        state.withLock { state in
            state.failures[client] = nil
            if state.trusted[client] == nil, state.trusted.count >= Self.maximumAddresses { state.trusted = [:] }
            state.trusted[client] = now
        }
    }
}
