import BmobWire
import Testing

/// The sync protocol's messages (`sync.md` §1): Convex's shapes with plain JSON values, both directions, and the
/// bounds every decoder keeps.
@Suite("Sync protocol messages")
struct SyncMessageTests {
    @Test("the opening burst of sync.md §1.3 decodes, and re-encodes to messages that decode the same")
    func openingBurst() throws {
        let burst = [
            #"{"type":"Connect","sessionId":"6f1c","connectionCount":0,"lastCloseReason":"InitialConnect","clientTs":1712}"#,
            #"{"type":"Authenticate","tokenType":"User","value":"tok","baseVersion":0}"#,
            #"{"type":"ModifyQuerySet","baseVersion":0,"newVersion":1,"modifications":[{"type":"Add","queryId":0,"udfPath":"notes:list","args":[{"limit":20}]}]}"#,
            #"{"type":"Mutation","requestId":3,"udfPath":"notes:add","args":[{"text":"hi"}]}"#,
        ]
        let messages = try burst.map { try SyncClientMessage(decoding: $0) }
        #expect(messages[0] == .connect(SyncConnect(sessionId: "6f1c", clientTs: 1712)))
        #expect(messages[1] == .authenticate(tokenType: .user, value: "tok", baseVersion: 0))
        let list = try SyncFunctionPath(validating: "notes:list")
        #expect(messages[2] == .modifyQuerySet(baseVersion: 0, newVersion: 1, modifications: [
            .add(queryId: 0, path: list, arguments: ["limit": 20], journal: nil),
        ]))
        #expect(messages[3] == .mutation(requestId: 3, path: try SyncFunctionPath(validating: "notes:add"), arguments: ["text": "hi"]))
        for message in messages {
            #expect(try SyncClientMessage(decoding: message.encoded) == message)
        }
        // Arguments as a bare object, an empty array or absent are accepted too.
        #expect(try SyncClientMessage(decoding: #"{"type":"Action","requestId":1,"udfPath":"emails:send","args":{"to":"x"}}"#)
            == .action(requestId: 1, path: try SyncFunctionPath(validating: "emails:send"), arguments: ["to": "x"]))
        #expect(try SyncClientMessage(decoding: #"{"type":"Mutation","requestId":1,"udfPath":"a:b","args":[]}"#)
            == .mutation(requestId: 1, path: try SyncFunctionPath(validating: "a:b"), arguments: [:]))
        #expect(try SyncClientMessage(decoding: #"{"type":"Authenticate","tokenType":"None","baseVersion":2}"#)
            == .authenticate(tokenType: .none, value: nil, baseVersion: 2))
    }

    @Test("the server's messages of sync.md §1.4 decode and round trip; whole numbers stay integers")
    func serverMessages() throws {
        let transition = #"""
            {"type":"Transition","startVersion":{"querySet":1,"identity":1,"ts":0},"endVersion":{"querySet":1,"identity":1,"ts":123},
             "modifications":[{"type":"QueryUpdated","queryId":0,"value":[{"_id":"n1","text":"hi","n":3.0}],"logLines":[],"journal":null},
             {"type":"QueryFailed","queryId":1,"errorMessage":"no","errorData":{"code":7},"logLines":["x"],"journal":null},
             {"type":"QueryRemoved","queryId":2}]}
            """#
        let decoded = try SyncServerMessage(decoding: transition)
        guard case .transition(let start, let end, let modifications) = decoded else {
            Issue.record("not a transition: \(decoded)")
            return
        }
        #expect(start == SyncStateVersion(querySet: 1, identity: 1, ts: 0) && end.ts == 123)
        #expect(modifications == [
            .updated(queryId: 0, value: [["_id": "n1", "text": "hi", "n": .int(3)]], logLines: [], journal: nil),
            .failed(queryId: 1, errorMessage: "no", errorData: ["code": 7], logLines: ["x"], journal: nil),
            .removed(queryId: 2),
        ])
        let others: [SyncServerMessage] = [
            .mutationResponse(SyncFunctionResponse(requestId: 3, outcome: .success(value: "n1", ts: 123))),
            .mutationResponse(SyncFunctionResponse(requestId: 4, outcome: .failure(message: "bad", errorData: ["why": "x"]))),
            .actionResponse(SyncFunctionResponse(requestId: 5, outcome: .success(value: .null, ts: nil), logLines: ["sent"])),
            .authOk(baseVersion: 1, userId: "u1"), .authOk(baseVersion: 2, userId: nil),
            .authError(error: "expired", baseVersion: 1, authUpdateAttempted: false), .fatalError(error: "bad version"), .ping,
            .transitionChunk(chunk: "{\"ty", partNumber: 0, totalParts: 2, transitionId: "t1"),
        ]
        for message in [decoded] + others {
            #expect(try SyncServerMessage(decoding: message.encoded) == message, "\(message)")
        }
        // An action's answer carries no commit timestamp, whatever a peer sends.
        let action = try SyncServerMessage(decoding: #"{"type":"ActionResponse","requestId":1,"success":true,"result":1,"ts":9}"#)
        #expect(action == .actionResponse(SyncFunctionResponse(requestId: 1, outcome: .success(value: 1, ts: nil))))
    }

    @Test("function paths canonicalize as Convex's clients do and refuse anything else", arguments: [
        ("notes:list", "notes:list"), ("notes", "notes:default"), ("notes.js:add", "notes:add"), ("dir/notes:x_1", "dir/notes:x_1"),
        ("_User:get", "_User:get"),
    ])
    func functionPaths(text: String, canonical: String) throws {
        let path = try SyncFunctionPath(validating: text)
        #expect(path.rawValue == canonical)
        #expect(try SyncFunctionPath(validating: path.rawValue) == path)
        #expect(path.module + ":" + path.export == canonical)
    }

    @Test("bad function paths", arguments: [
        "", ":list", "notes:", "notes:a:b", "notes.js.js:list", ".js:x", "/abs:x", ".hidden:x", "no tes:x", "notes:li-st", "é:x",
        String(repeating: "m", count: 129) + ":x", "m:" + String(repeating: "e", count: 65),
    ])
    func badFunctionPaths(text: String) {
        #expect(throws: SyncProtocolError.self) { try SyncFunctionPath(validating: text) }
    }

    @Test("hostile client messages get a SyncProtocolError naming what was wrong, never a crash", arguments: [
        ("", SyncProtocolError.Kind.invalidJSON), ("[]", .unknownType), (#"{"type":1}"#, .unknownType),
        (#"{"type":"Nope"}"#, .unknownType), (#"{"type":"Connect"}"#, .invalidMember),
        (#"{"type":"Connect","sessionId":"","connectionCount":0}"#, .invalidMember),
        (#"{"type":"Connect","sessionId":"s","connectionCount":-1}"#, .invalidMember),
        (#"{"type":"Connect","sessionId":"s","connectionCount":9007199254740992}"#, .invalidMember),
        (#"{"type":"Authenticate","tokenType":"Root","value":"x","baseVersion":0}"#, .invalidMember),
        (#"{"type":"Authenticate","tokenType":"User","baseVersion":0}"#, .invalidMember),
        (#"{"type":"Authenticate","tokenType":"None","value":"x","baseVersion":0}"#, .invalidMember),
        (#"{"type":"ModifyQuerySet","baseVersion":0,"newVersion":1,"modifications":{}}"#, .invalidMember),
        (#"{"type":"ModifyQuerySet","baseVersion":0,"newVersion":1,"modifications":[{"type":"Add","queryId":0}]}"#, .invalidMember),
        (#"{"type":"Mutation","requestId":1.5,"udfPath":"a:b"}"#, .invalidMember),
        (#"{"type":"Mutation","requestId":1,"udfPath":"a:b","args":[{},{}]}"#, .invalidMember),
        (#"{"type":"Mutation","requestId":1,"udfPath":"a:b","args":"x"}"#, .invalidMember),
        (#"{"type":"Action","requestId":1,"udfPath":"../x:y"}"#, .invalidFunctionPath),
    ])
    func hostileClientMessages(text: String, kind: SyncProtocolError.Kind) {
        do {
            let message = try SyncClientMessage(decoding: text)
            Issue.record("accepted \(message)")
        } catch {
            #expect(error.kind == kind, "\(error)")
            #expect(!error.message.isEmpty)
        }
    }

    @Test("the limits: message size, query modifications per message, log lines, and a token's length")
    func limits() throws {
        let limits = SyncLimits(maximumMessageBytes: 200, maximumModifications: 2, maximumItems: 2)
        let big = #"{"type":"Event","eventType":""# + String(repeating: "x", count: 200) + #""}"#
        #expect(throws: SyncProtocolError(.messageTooLarge, "a message is at most 200 bytes")) {
            try SyncClientMessage(decoding: big, limits: limits)
        }
        let three = SyncClientMessage.modifyQuerySet(baseVersion: 0, newVersion: 1, modifications: [.remove(queryId: 0), .remove(queryId: 1), .remove(queryId: 2)])
        do {
            _ = try SyncClientMessage(decoding: three.encoded, limits: limits)
            Issue.record("three modifications accepted")
        } catch { #expect(error.kind == .tooManyItems) }
        let logs = SyncServerMessage.mutationResponse(SyncFunctionResponse(requestId: 1, outcome: .success(value: 1, ts: 1), logLines: ["a", "b", "c"]))
        do {
            _ = try SyncServerMessage(decoding: logs.encoded, limits: limits)
            Issue.record("three log lines accepted")
        } catch { #expect(error.kind == .tooManyItems) }
        let token = String(repeating: "t", count: SyncClientMessage.maximumTokenLength + 1)
        do {
            _ = try SyncClientMessage(decoding: SyncClientMessage.authenticate(tokenType: .user, value: token, baseVersion: 0).encoded)
            Issue.record("an over-long token accepted")
        } catch { #expect(error.kind == .invalidMember) }
        // Deep nesting is the JSON parser's refusal, not a crash.
        let deep = #"{"type":"Mutation","requestId":1,"udfPath":"a:b","args":"# + String(repeating: "[", count: 10_000)
        do {
            _ = try SyncClientMessage(decoding: deep)
            Issue.record("deep nesting accepted")
        } catch { #expect(error.kind == .invalidJSON) }
    }
}

/// Large transitions split into `TransitionChunk`s and joined back, and the assembler's refusals.
@Suite("Sync protocol: transition chunks")
struct SyncTransitionChunkTests {
    private func transition(rows: Int) -> SyncServerMessage {
        let value = JSONValue.array((0..<rows).map { .object(["i": .int(Int64($0)), "text": "héllo wörld ✓"]) })
        return .transition(
            start: SyncStateVersion(querySet: 1, identity: 1, ts: 4), end: SyncStateVersion(querySet: 1, identity: 1, ts: 9),
            modifications: [.updated(queryId: 0, value: value, logLines: [], journal: nil)])
    }

    @Test("a transition over the limit goes in chunks that join back into it; a small one goes whole")
    func roundTrip() throws {
        let small = transition(rows: 1)
        #expect(SyncTransitionChunks.split(small, maximumBytes: 4096, transitionId: "t") == [small])
        #expect(SyncTransitionChunks.split(.ping, maximumBytes: 64, transitionId: "t") == [.ping])
        let big = transition(rows: 200)
        let chunks = SyncTransitionChunks.split(big, maximumBytes: 500, transitionId: "t1")
        #expect(chunks.count > 10)
        var assembler = SyncTransitionAssembler()
        var result: SyncServerMessage?
        for (index, chunk) in chunks.enumerated() {
            // Each chunk is itself a message that decodes, within the size it was cut to plus its envelope.
            let decoded = try SyncServerMessage(decoding: chunk.encoded)
            guard case .transitionChunk(let text, let part, let total, let id) = decoded else {
                Issue.record("not a chunk: \(decoded)")
                return
            }
            #expect(text.utf8.count <= 500 && part == Int64(index) && total == Int64(chunks.count) && id == "t1")
            result = try assembler.add(chunk: text, partNumber: part, totalParts: total, transitionId: id)
            #expect((result == nil) == (index < chunks.count - 1))
        }
        #expect(result == big)
        #expect(!assembler.isAssembling)
    }

    @Test("parts out of order, mixed ids or totals, too many parts, too much text, or no transition are refused")
    func refusals() throws {
        var assembler = SyncTransitionAssembler(limits: SyncLimits(maximumMessageBytes: 100, maximumTransitionBytes: 100))
        #expect(throws: SyncProtocolError.self) { try assembler.add(chunk: "{", partNumber: 1, totalParts: 2, transitionId: "a") }
        #expect(throws: SyncProtocolError.self) {
            try assembler.add(chunk: "{", partNumber: 0, totalParts: Int64(SyncTransitionChunks.maximumParts + 1), transitionId: "a")
        }
        _ = try assembler.add(chunk: "{", partNumber: 0, totalParts: 3, transitionId: "a")
        #expect(throws: SyncProtocolError.self) { try assembler.add(chunk: "x", partNumber: 1, totalParts: 3, transitionId: "b") }
        #expect(!assembler.isAssembling, "a refusal forgets the transition")
        _ = try assembler.add(chunk: "{", partNumber: 0, totalParts: 2, transitionId: "a")
        #expect(throws: SyncProtocolError.self) { try assembler.add(chunk: "x", partNumber: 1, totalParts: 3, transitionId: "a") }
        _ = try assembler.add(chunk: String(repeating: "x", count: 60), partNumber: 0, totalParts: 2, transitionId: "c")
        do {
            _ = try assembler.add(chunk: String(repeating: "x", count: 60), partNumber: 1, totalParts: 2, transitionId: "c")
            Issue.record("more text than the limit accepted")
        } catch { #expect(error.kind == .messageTooLarge) }
        _ = try assembler.add(chunk: #"{"type":"#, partNumber: 0, totalParts: 2, transitionId: "d")
        do {
            _ = try assembler.add(chunk: #""Ping"}"#, partNumber: 1, totalParts: 2, transitionId: "d")
            Issue.record("a joined Ping accepted as a transition")
        } catch { #expect(error.kind == .unknownType) }
    }
}
