import BmobWire
import Foundation
@testable import OnebaseClient
import Testing

/// The machine with an offline store: cached results held back until the server confirms the same user, cleared for
/// another user; the queue on disk sent in order, marked before sending, and what a crashed run left.
@Suite("Offline sync")
struct OfflineSyncTests {
    typealias H = MachineHarness

    /// A store whose cache holds `notes:list` = ["cached"] for user `u1`, confirmed for token `tok`.
    static func primedStore(_ directory: URL) -> OfflineStore {
        let store = OfflineStore(directory: directory)
        store.saveCache(H.token("notes:list").canonical, value: ["cached"], user: "u1", now: Date())
        store.setMeta(OfflineStoreMeta(confirmedUserId: "u1", tokenHash: OnebaseSyncMachine.hash("tok")))
        return store
    }

    @Test("a cold start with the confirmed token shows the cache at once, then the live result replaces it")
    func coldStart() {
        let directory = H.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var h = H(token: "tok", offline: Self.primedStore(directory))
        h.run { $0.start() }
        #expect(H.deliveries(h.run { $0.subscribe(1, to: H.token("notes:list")) }).map(\.1) == [["cached"]])
        h.open()
        h.authOk("u1")
        let live = h.transition(ts: 1, [.updated(queryId: 0, value: ["live"], logLines: [], journal: nil)])
        #expect(H.deliveries(live).map(\.1) == [["live"]])
        // The live result is what the cache holds now.
        #expect(OfflineStore(directory: directory).cachedValue(H.token("notes:list").canonical, user: "u1") == ["live"])
    }

    @Test("another token holds the cache back until AuthOk; the same user releases it")
    func heldUntilConfirmed() {
        let directory = H.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var h = H(token: "new-token", offline: Self.primedStore(directory))
        h.startAndOpen()
        #expect(H.deliveries(h.run { $0.subscribe(1, to: H.token("notes:list")) }).isEmpty)
        #expect(H.deliveries(h.authOk("u1")).map(\.1) == [["cached"]])
    }

    @Test("a different user clears the cache")
    func userChange() {
        let directory = H.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = Self.primedStore(directory)
        var h = H(token: "other-token", offline: store)
        h.startAndOpen()
        h.run { $0.subscribe(1, to: H.token("notes:list")) }
        #expect(H.deliveries(h.authOk("u2")).isEmpty)
        #expect(store.cachedCount == 0 && store.meta.confirmedUserId == "u2")
        // Signing out clears it too, at once.
        h.transition(ts: 1, [.updated(queryId: 0, value: ["u2's"], logLines: [], journal: nil)])
        #expect(store.cachedCount == 1)
        h.run { $0.signedOut() }
        #expect(store.cachedCount == 0)
    }

    @Test("queued mutations: on disk in order, marked sent before they go, removed when answered")
    func writeAhead() throws {
        let directory = H.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = OfflineStore(directory: directory)
        var h = H(offline: store)
        h.run { $0.start() }
        let (first, _) = h.machine.mutation(H.token("notes:add", ["n": 1]), name: "notes:add", update: nil, now: Date())
        _ = h.machine.mutation(H.token("notes:add", ["n": 2]), name: "notes:add", update: nil, now: Date())
        #expect(store.queuedMutations.map(\.state) == [.pending, .pending])
        h.open()
        let sent = H.sent(h.authOk())
        #expect(sent.map { $0["args"] } == [[["n": 1]]], "one at a time")
        #expect(OfflineStore(directory: directory).queuedMutations.map(\.state) == [.sent, .pending])
        let next = H.sent(h.server(.mutationResponse(SyncFunctionResponse(requestId: first, outcome: .success(value: .null, ts: 0)))))
        #expect(next.map { $0["args"] } == [[["n": 2]]])
        #expect(OfflineStore(directory: directory).queuedMutations.map(\.state) == [.sent])
    }

    @Test(
        "at launch: entries a crashed run left sent are reported, never sent; pending ones go out; their failures are reported"
    )
    func crashRecovery() throws {
        let directory = H.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let earlier = OfflineStore(directory: directory)
        let lost = earlier.enqueue(name: "notes:add", args: ["n": 1], owner: nil, now: Date())
        earlier.markSent(lost)
        _ = earlier.enqueue(name: "notes:add", args: ["n": 2], owner: nil, now: Date())
        _ = earlier.enqueue(name: "notes:add", args: ["n": 3], owner: nil, now: Date())

        var h = H(offline: OfflineStore(directory: directory))
        let started = h.run { $0.start() }
        #expect(
            started.first
                == .queuedMutationFailed(
                    name: "notes:add", args: ["n": 1],
                    error: OnebaseError(message: "the app stopped while the mutation was in flight")))
        #expect(h.machine.queuedMutationCount == 2)
        h.open()
        let sent = H.sent(h.authOk())
        #expect(sent.map { $0["args"] } == [[["n": 2]]])
        // Success: removed quietly (and the next goes). Failure: reported, since nobody awaits it.
        let next = H.sent(
            h.server(.mutationResponse(SyncFunctionResponse(requestId: sent[0]["requestId"]?.int64Value ?? -1, outcome: .success(value: 1, ts: 0)))))
        #expect(next.map { $0["args"] } == [[["n": 3]]])
        let ids = (sent + next).compactMap { $0["requestId"]?.int64Value }
        let failed = h.server(
            .mutationResponse(SyncFunctionResponse(requestId: ids[1], outcome: .failure(message: "no", errorData: nil)))
        )
        #expect(
            failed == [.queuedMutationFailed(name: "notes:add", args: ["n": 3], error: OnebaseError(message: "no"))])
        #expect(OfflineStore(directory: directory).queuedMutations.isEmpty)
    }

    @Test("a queued mutation of another user is dropped and reported, not run as the new user")
    func otherUsersMutation() {
        let directory = H.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = OfflineStore(directory: directory)
        _ = store.enqueue(name: "notes:add", args: [:], owner: "u1", now: Date())
        var h = H(token: "tok", offline: store)
        h.startAndOpen()
        let actions = h.authOk("u2")
        #expect(!H.sentTypes(actions).contains("Mutation"))
        #expect(
            actions.contains {
                if case .queuedMutationFailed(let name, _, _) = $0 { name == "notes:add" } else { false }
            })
        #expect(store.queuedMutations.isEmpty)
    }

    @Test("clearQueuedMutations drops unsent mutations, fails their callers and drops their updates")
    func clearQueue() {
        let directory = H.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = OfflineStore(directory: directory)
        var h = H(offline: store)
        h.run { $0.start() }
        let (id, _) = h.machine.mutation(H.token("notes:add"), name: "notes:add", update: { _ in }, now: Date())
        let cleared = h.run { $0.clearQueuedMutations() }
        #expect(
            cleared == [.resolve(requestId: id, .failure(OnebaseError(message: "the queued mutation was cleared")))])
        #expect(
            store.queuedMutations.isEmpty && h.machine.queuedMutationCount == 0 && h.machine.optimisticUpdateCount == 0)
    }
}
