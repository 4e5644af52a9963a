import BmobIO
import Foundation

/// The fetched key sets of every `jwksURL`, shared by all ``OIDCAuthDataValidator``s made with it.
///
/// Validators are cheap values, often made afresh from an app's settings for each login; the keys they fetch
/// must outlive them, or every login would download the provider's key set again. Make one cache per server
/// (or per test) and pass it to ``OIDCAuthDataValidator/init(settings:keySets:)``: validators for the same URL
/// then share one fetched set, its one-hour lifetime and its once-a-minute refetch limit.
package final class OIDCKeySetCache: @unchecked Sendable {
    /// How sets are downloaded.
    package let fetcher: OIDCKeySetFetcher
    /// The clock for validity checks and cache lifetimes.
    package let clock: ServerClock
    // Invariant: `stores` is only read or written while holding `lock`; everything else is immutable.
    private let lock = Lock()
    private var stores: [URL: OIDCKeyStore] = [:]

    /// An empty cache that fetches with `fetcher`, timed by `clock`.
    ///
    /// - Parameters:
    ///   - fetcher: Downloads a key set; ``OIDCKeySetFetcher/urlSession`` unless testing.
    ///   - clock: Now, for tokens' `exp`, `nbf` and `iat` and for the sets' lifetime.
    package init(fetcher: OIDCKeySetFetcher = .urlSession, clock: ServerClock) {
        self.fetcher = fetcher
        self.clock = clock
    }

    /// The store for `url`, made on first use.
    func store(for url: URL) -> OIDCKeyStore {
        lock.withLock {
            if let store = stores[url] { return store }
            let store = OIDCKeyStore(url: url, fetcher: fetcher, clock: clock)
            stores[url] = store
            return store
        }
    }
}
