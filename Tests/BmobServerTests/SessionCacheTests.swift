import BmobServer
import Testing

@Suite struct SessionCacheTests {
    private func entry(_ user: String, now: Int64, expiresAt: Int64 = .max) -> SessionCache.Entry {
        SessionCache.Entry(
            userId: user, roles: [], sessionExpiresAt: expiresAt, validUntil: now + SessionCache.lifetimeMilliseconds)
    }

    @Test func aStreamOfNewSessionsKeepsAboutALifetimeOfEntries() {
        let cache = SessionCache()
        // 100 new sessions a second for 60 s: without sweeping, 6,000 entries would stay until the cache filled.
        for second in 0..<60 {
            for index in 0..<100 {
                let now = Int64(second) * 1_000 + Int64(index) * 10
                cache.remember(tokenHash: "t\(second)-\(index)", entry("u\(index)", now: now), generation: cache.generation)
            }
        }
        #expect(cache.count <= 2 * Int(SessionCache.lifetimeMilliseconds / 1_000) * 100 + SessionCache.sweepThreshold)
        // What is still valid is still there; what expired is gone.
        #expect(cache.entry(tokenHash: "t59-99", now: 59_990)?.userId == "u99")
        #expect(cache.entry(tokenHash: "t0-0", now: 59_990) == nil)
    }

    @Test func entriesLiveNoLongerThanTheirLifetimeOrTheirSession() {
        let cache = SessionCache()
        cache.remember(tokenHash: "a", entry("u1", now: 0), generation: cache.generation)
        cache.remember(tokenHash: "b", entry("u2", now: 0, expiresAt: 1_000), generation: cache.generation)
        #expect(cache.entry(tokenHash: "a", now: 4_999)?.userId == "u1")
        #expect(cache.entry(tokenHash: "b", now: 1_000) == nil)
        #expect(cache.entry(tokenHash: "a", now: SessionCache.lifetimeMilliseconds) == nil)
    }

    @Test func aResolutionRacingAForgetIsNotRemembered() {
        let cache = SessionCache()
        let generation = cache.generation
        cache.forget(userId: "u1")
        cache.remember(tokenHash: "a", entry("u1", now: 0), generation: generation)
        #expect(cache.entry(tokenHash: "a", now: 1) == nil)
    }
}
