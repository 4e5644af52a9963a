import BmobRealtime
import BmobWire
import Foundation
@testable import OnebaseClient
import Testing

/// The sync machine, message in, actions out (`sync.md` §1.3–§1.8, §2).
@Suite("OnebaseSyncMachine")
struct OnebaseSyncMachineTests {
    typealias H = MachineHarness

    @Test("a fresh socket sends Connect, Authenticate and one ModifyQuerySet re-adding every live query")
    func openingBurst() throws {
        var h = H(token: "tok")
        h.run { $0.start() }
        #expect(h.log == [.connectionChanged(.connecting), .openTransport(attempt: 1)])
        // Subscribing before the socket opens sends nothing yet.
        #expect(H.sent(h.run { $0.subscribe(1, to: H.token("notes:list", ["limit": 20])) }).isEmpty)
        let burst = h.open()
        let sent = H.sent(burst)
        #expect(sent.map { $0["type"]?.stringValue } == ["Connect", "Authenticate", "ModifyQuerySet"])
        #expect(sent[0]["sessionId"] == "session-1" && sent[0]["connectionCount"] == 0)
        #expect(sent[0]["lastCloseReason"] == "InitialConnect")
        #expect(sent[1]["tokenType"] == "User" && sent[1]["value"] == "tok" && sent[1]["baseVersion"] == 0)
        #expect(sent[2]["baseVersion"] == 0 && sent[2]["newVersion"] == 1)
        let add = try #require(sent[2]["modifications"]?.arrayValue?.first)
        #expect(add["type"] == "Add" && add["queryId"] == 0 && add["udfPath"] == "notes:list")
        #expect(add["args"] == [["limit": 20]])
        #expect(burst.contains(.connectionChanged(.open)))

        // After a drop the next socket counts up, says why, and re-adds the query with its old id from version 0.
        h.drop()
        #expect(h.log.suffix(2).first == .connectionChanged(.connecting))
        h.run { $0.timerFired(.reconnect, attempt: 1) }
        let again = H.sent(h.open())
        #expect(again[0]["connectionCount"] == 1 && again[0]["lastCloseReason"] == "Closed 1006")
        #expect(again[2]["baseVersion"] == 0 && again[2]["modifications"]?[0]?["queryId"] == 0)
    }

    @Test("signed out, Authenticate carries tokenType None and no value")
    func anonymous() {
        var h = H()
        let sent = H.sent(h.startAndOpen())
        #expect(sent[1]["tokenType"] == "None" && sent[1]["value"] == nil)
        #expect(sent.count == 2)
    }

    @Test("subscriptions to one (name, args) share a query id; Remove goes out only with the last one")
    func referenceCounting() throws {
        var h = H()
        h.startAndOpen()
        let first = H.sent(h.run { $0.subscribe(1, to: H.token("notes:list")) })
        #expect(first.count == 1 && first[0]["baseVersion"] == 0 && first[0]["newVersion"] == 1)
        #expect(H.sent(h.run { $0.subscribe(2, to: H.token("notes:list")) }).isEmpty)
        // Other arguments are another query.
        let other = H.sent(h.run { $0.subscribe(3, to: H.token("notes:list", ["limit": 5])) })
        #expect(other[0]["modifications"]?[0]?["queryId"] == 1 && other[0]["baseVersion"] == 1)
        #expect(H.sent(h.run { $0.unsubscribe(1) }).isEmpty)
        let removed = H.sent(h.run { $0.unsubscribe(2) })
        #expect(removed[0]["modifications"]?[0] == ["type": "Remove", "queryId": 0])
        #expect(removed[0]["baseVersion"] == 2 && removed[0]["newVersion"] == 3)
        // Cancelling twice does nothing.
        #expect(h.run { $0.unsubscribe(2) }.isEmpty)
    }

    @Test("a transition delivers changed values only; a late result of a removed query is ignored")
    func transitions() {
        var h = H()
        h.startAndOpen()
        h.run { $0.subscribe(1, to: H.token("notes:list")) }
        h.run { $0.subscribe(2, to: H.token("notes:list")) }
        let first = h.transition(ts: 5, [.updated(queryId: 0, value: [1, 2], logLines: [], journal: nil)])
        #expect(H.deliveries(first).map(\.0) == [1, 2] && H.deliveries(first).allSatisfy { $0.1 == [1, 2] })
        // The same value again: nobody is told.
        #expect(
            H.deliveries(h.transition(ts: 6, [.updated(queryId: 0, value: [1, 2], logLines: [], journal: nil)])).isEmpty
        )
        // A new subscriber to a loaded query gets the value at once.
        #expect(H.deliveries(h.run { $0.subscribe(3, to: H.token("notes:list")) }).map(\.0) == [3])
        h.run { $0.unsubscribe(1) }
        h.run { $0.unsubscribe(2) }
        h.run { $0.unsubscribe(3) }
        #expect(
            H.deliveries(h.transition(ts: 7, [.updated(queryId: 0, value: [9], logLines: [], journal: nil)])).isEmpty)
        // A failed query reads as loading.
        h.run { $0.subscribe(4, to: H.token("notes:get")) }
        let failed = h.transition(
            ts: 8, [.failed(queryId: 1, errorMessage: "no", errorData: nil, logLines: [], journal: nil)])
        #expect(H.deliveries(failed).isEmpty)
    }

    @Test("a transition that does not start at the current version drops the socket and reconnects")
    func transitionChain() {
        var h = H()
        h.startAndOpen()
        h.transition(ts: 3, [])
        #expect(h.machine.version.ts == 3)
        let actions = h.server(
            .transition(start: SyncStateVersion(ts: 1), end: SyncStateVersion(ts: 4), modifications: []))
        #expect(actions.contains(.closeTransport(attempt: 1)))
        #expect(actions.contains(.connectionChanged(.closed)))
        #expect(actions.contains { if case .startTimer(.reconnect, _, _) = $0 { true } else { false } })
        #expect(h.machine.version == .initial)
    }

    @Test("TransitionChunks are joined back into the transition")
    func chunks() {
        var h = H()
        h.startAndOpen()
        h.run { $0.subscribe(1, to: H.token("notes:list")) }
        let big: JSONValue = .array((0..<200).map { .string("note \($0)") })
        let transition = SyncServerMessage.transition(
            start: .initial, end: SyncStateVersion(ts: 2),
            modifications: [.updated(queryId: 0, value: big, logLines: [], journal: nil)])
        let parts = SyncTransitionChunks.split(transition, maximumBytes: 500, transitionId: "t1")
        #expect(parts.count > 3)
        var delivered: [(Int, OnebaseValue?)] = []
        for part in parts { delivered += H.deliveries(h.server(part)) }
        #expect(delivered.count == 1 && delivered[0].1?.array?.count == 200)
        #expect(h.machine.version.ts == 2)
    }

    @Test(
        "no flicker: the optimistic value stays until the transition reaching the mutation's ts, then the server value is delivered before the caller resumes"
    )
    func noFlicker() throws {
        var h = H()
        h.startAndOpen()
        h.authOk()
        h.run { $0.subscribe(1, to: H.token("notes:list")) }
        h.transition(ts: 1, [.updated(queryId: 0, value: [], logLines: [], journal: nil)])
        var values: [OnebaseValue?] = H.deliveries(h.log).map(\.1)
        let (id, actions) = h.machine.mutation(
            H.token("notes:add", ["text": "Hello"]), name: "notes:add",
            update: { store in
                let current = store.get("notes:list")?.array ?? []
                store.set("notes:list", [:], .array(current + [["text": "Hello"]]))
            }, now: Date())
        values += H.deliveries(actions).map(\.1)
        #expect(H.sentTypes(actions) == ["Mutation"])
        // The response alone changes nothing: no delivery, no resolution.
        let response = h.server(
            .mutationResponse(SyncFunctionResponse(requestId: id, outcome: .success(value: "n1", ts: 2))))
        #expect(response.isEmpty)
        // A transition before the commit keeps the update, replayed over the new server value.
        let before = h.transition(ts: 1, [.updated(queryId: 0, value: [["text": "other"]], logLines: [], journal: nil)])
        values += H.deliveries(before).map(\.1)
        #expect(!before.contains { if case .resolve = $0 { true } else { false } })
        // The covering transition: one delivery of the server's value, then the resolution.
        let covering = h.transition(
            ts: 2,
            [
                .updated(
                    queryId: 0, value: [["text": "other"], ["text": "Hello", "_id": "n1"]], logLines: [], journal: nil)
            ])
        values += H.deliveries(covering).map(\.1)
        #expect(H.order(covering) == ["deliver", "resolve"])
        #expect(covering.contains(.resolve(requestId: id, .success("n1"))))
        #expect(
            values == [
                [], [["text": "Hello"]], [["text": "other"], ["text": "Hello"]],
                [["text": "other"], ["text": "Hello", "_id": "n1"]],
            ])
        #expect(h.machine.optimisticUpdateCount == 0)
    }

    @Test("a failed mutation rejects at once with message and data, and its optimistic update goes")
    func mutationFailure() {
        var h = H()
        h.startAndOpen()
        h.authOk()
        h.run { $0.subscribe(1, to: H.token("notes:list")) }
        h.transition(ts: 1, [.updated(queryId: 0, value: [], logLines: [], journal: nil)])
        let (id, _) = h.machine.mutation(
            H.token("notes:add"), name: "notes:add", update: { $0.set("notes:list", [:], ["x"]) }, now: Date())
        let failure = h.server(
            .mutationResponse(
                SyncFunctionResponse(requestId: id, outcome: .failure(message: "nope", errorData: ["code": 7]))))
        #expect(H.deliveries(failure).map(\.1) == [[]])
        #expect(failure.last == .resolve(requestId: id, .failure(OnebaseError(message: "nope", data: ["code": 7]))))
        #expect(H.order(failure) == ["deliver", "resolve"])
    }

    @Test("mutations made while disconnected wait, go out in order and one at a time after AuthOk, and setting nil shows loading")
    func queuedInOrder() {
        var h = H()
        h.run { $0.start() }
        h.run { $0.subscribe(1, to: H.token("notes:list")) }
        let (first, firstActions) = h.machine.mutation(
            H.token("notes:add", ["n": 1]), name: "notes:add", update: { $0.set("notes:list", [:], nil) }, now: Date())
        let (second, _) = h.machine.mutation(
            H.token("notes:add", ["n": 2]), name: "notes:add", update: nil, now: Date())
        #expect(H.sent(firstActions).isEmpty && h.machine.queuedMutationCount == 2)
        // Never delivered before, loading stays unannounced.
        #expect(H.deliveries(firstActions).isEmpty)
        #expect(H.sentTypes(h.open()) == ["Connect", "Authenticate", "ModifyQuerySet"])
        let flushed = H.sent(h.authOk())
        #expect(flushed.map { $0["requestId"] } == [.int(first)], "the second waits for the first's answer")
        #expect(flushed.map { $0["args"] } == [[["n": 1]]])
        let next = H.sent(h.server(.mutationResponse(SyncFunctionResponse(requestId: first, outcome: .success(value: 1, ts: 0)))))
        #expect(next.map { $0["requestId"] } == [.int(second)])
        #expect(next.map { $0["args"] } == [[["n": 2]]])
    }

    @Test("a sent mutation is lost with the socket: it fails and is never sent again; a completed one resolves; a waiting one goes on the next socket")
    func atMostOnce() {
        var h = H()
        h.startAndOpen()
        h.authOk()
        let (done, _) = h.machine.mutation(H.token("notes:add", ["n": 2]), name: "notes:add", update: nil, now: Date())
        let (lost, _) = h.machine.mutation(H.token("notes:add"), name: "notes:add", update: { _ in }, now: Date())
        let (waiting, _) = h.machine.mutation(H.token("notes:add", ["n": 3]), name: "notes:add", update: nil, now: Date())
        // `done` is answered (its result waits for ts 9); `lost` goes out then and is in flight when the socket drops.
        let afterDone = H.sent(h.server(.mutationResponse(SyncFunctionResponse(requestId: done, outcome: .success(value: 1, ts: 9)))))
        #expect(afterDone.map { $0["requestId"] } == [.int(lost)])
        let dropped = h.drop()
        #expect(dropped.contains(.resolve(requestId: lost, .failure(.connectionLost))))
        #expect(dropped.contains(.resolve(requestId: done, .success(1))))
        #expect(!dropped.contains { if case .resolve(waiting, _) = $0 { true } else { false } })
        #expect(h.machine.queuedMutationCount == 1 && h.machine.optimisticUpdateCount == 0)
        h.run { $0.timerFired(.reconnect, attempt: 1) }
        h.open()
        #expect(H.sent(h.authOk()).map { $0["requestId"] } == [.int(waiting)], "only the one never sent goes again")
    }

    @Test("actions fail fast while disconnected and fail when the socket drops in flight")
    func actions() {
        var h = H()
        h.run { $0.start() }
        let (early, refused) = h.machine.action(H.token("emails:send"), name: "emails:send")
        #expect(refused == [.resolve(requestId: early, .failure(.notConnected))])
        h.open()
        let (id, sent) = h.machine.action(H.token("emails:send"), name: "emails:send")
        #expect(H.sentTypes(sent) == ["Action"])
        let (answered, _) = h.machine.action(H.token("emails:send"), name: "emails:send")
        #expect(
            h.server(
                .actionResponse(SyncFunctionResponse(requestId: answered, outcome: .success(value: "ok", ts: nil))))
                == [.resolve(requestId: answered, .success("ok"))])
        #expect(h.drop().contains(.resolve(requestId: id, .failure(.connectionLost))))
    }

    @Test("AuthOk reports true once; AuthError deletes the token, reports false and reconnects signed out")
    func auth() {
        var h = H(token: "tok")
        h.startAndOpen()
        #expect(h.authOk("u1").contains(.authChanged(true)))
        #expect(!h.authOk("u1").contains(.authChanged(true)))
        let refused = h.server(.authError(error: "expired", baseVersion: 0, authUpdateAttempted: false))
        #expect(refused.prefix(2) == [.deleteToken, .authChanged(false)])
        #expect(refused.contains(.closeTransport(attempt: 1)) && refused.contains(.openTransport(attempt: 2)))
        #expect(h.machine.currentToken == nil)
        let sent = H.sent(h.open())
        #expect(sent[1]["tokenType"] == "None")
    }

    @Test("a new token reconnects with it; the old identity's results are dropped")
    func tokenChange() {
        var h = H()
        h.startAndOpen()
        h.authOk()
        h.run { $0.subscribe(1, to: H.token("notes:list")) }
        h.transition(ts: 1, [.updated(queryId: 0, value: ["public"], logLines: [], journal: nil)])
        let changed = h.run { $0.setToken("tok") }
        #expect(changed.contains(.closeTransport(attempt: 1)) && changed.contains(.openTransport(attempt: 2)))
        #expect(H.deliveries(changed).map(\.1) == [nil])
        #expect(H.sent(h.open())[1]["value"] == "tok")
    }

    @Test("60 s of silence (four silent 15 s checks) drops the socket; any message, a Ping too, resets the count")
    func silence() {
        var h = H()
        h.startAndOpen()
        for _ in 0..<3 { #expect(!h.run { $0.timerFired(.silence, attempt: 1) }.contains(.closeTransport(attempt: 1))) }
        h.server(.ping)
        for _ in 0..<4 { #expect(!h.run { $0.timerFired(.silence, attempt: 1) }.contains(.closeTransport(attempt: 1))) }
        #expect(h.run { $0.timerFired(.silence, attempt: 1) }.contains(.closeTransport(attempt: 1)))
    }

    @Test("an unknown message type is ignored; a malformed message drops the socket")
    func unknownAndMalformed() {
        var h = H()
        h.startAndOpen()
        #expect(h.run { $0.messageReceived(attempt: 1, text: #"{"type":"SomethingNew","x":1}"#) }.isEmpty)
        let malformed = h.run { $0.messageReceived(attempt: 1, text: #"{"type":"Transition"}"#) }
        #expect(malformed.contains(.closeTransport(attempt: 1)))
    }

    @Test("hostile server: chunks out of order drop the socket; results for unknown query ids are ignored")
    func hostileServer() {
        var h = H()
        h.startAndOpen()
        h.run { $0.subscribe(1, to: H.token("notes:list")) }
        #expect(
            H.deliveries(h.transition(ts: 1, [.updated(queryId: 99, value: "x", logLines: [], journal: nil)])).isEmpty)
        #expect(h.server(.transitionChunk(chunk: "{", partNumber: 0, totalParts: 2, transitionId: "a")).isEmpty)
        let outOfOrder = h.server(.transitionChunk(chunk: "}", partNumber: 0, totalParts: 2, transitionId: "b"))
        #expect(outOfOrder.contains(.closeTransport(attempt: 1)))
        // A response to a request never made is ignored.
        h.run { $0.timerFired(.reconnect, attempt: 1) }
        h.open()
        #expect(
            h.server(.mutationResponse(SyncFunctionResponse(requestId: 42, outcome: .success(value: 1, ts: 1)))).isEmpty
        )
    }

    @Test("backoff grows with failed attempts and resets once the server confirms the identity")
    func backoffResets() {
        var h = H()
        h.run { $0.start() }
        for attempt in 1...3 {
            h.run { $0.transportOpenFailed(attempt: attempt) }
            h.run { $0.timerFired(.reconnect, attempt: attempt) }
        }
        #expect(h.machine.failures == 3)
        let delays = h.log.compactMap { if case .startTimer(.reconnect, _, let delay) = $0 { delay } else { nil } }
        #expect(delays == [.milliseconds(500), .seconds(1), .seconds(2)])
        h.open()
        h.authOk()
        #expect(h.machine.failures == 0)
    }

    @Test("a FatalError stops the client: closed, no reconnect timer")
    func fatal() {
        var h = H()
        h.startAndOpen()
        let actions = h.server(.fatalError(error: "bad request"))
        #expect(actions.contains(.connectionChanged(.closed)))
        #expect(!actions.contains { if case .startTimer = $0 { true } else { false } })
        #expect(h.machine.phase == .stopped)
    }

    @Test("one-shot queries: answered by the first result, then the query is removed")
    func oneShot() {
        var h = H()
        h.startAndOpen()
        let added = H.sent(h.run { $0.query(7, H.token("notes:best")) })
        #expect(added[0]["modifications"]?[0]?["type"] == "Add")
        let answered = h.transition(ts: 1, [.updated(queryId: 0, value: "best", logLines: [], journal: nil)])
        #expect(answered.contains(.resolveQuery(waiter: 7, .success("best"))))
        #expect(H.sent(answered).first?["modifications"]?[0]?["type"] == "Remove")
    }
}
