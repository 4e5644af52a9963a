import BmobServer
import BmobStore
import BmobTesting
import BmobWire
import Foundation
import Testing

/// Change history, deleted objects, revert and restore over REST, on both engines: the answers' shapes, the
/// reading rules (current access, per-version ACLs, hidden fields) and the writing rules (both versions writable,
/// class permissions, `ifUpdatedAt`).
@Suite("History: changes, revert and restore")
struct HistoryRoutesTests {
    /// Creates an object as `token`'s user (or anonymously) and returns its id.
    private func create(_ server: TestServer, _ className: String, _ fields: JSONValue, token: String? = nil) async throws -> String {
        let response = try await server.call(
            "POST", "/1/classes/\(className)", json: fields, headers: token.map { [("X-Bmob-Session-Token", $0)] } ?? [])
        guard response.status == 201, let id = response.json?["objectId"]?.stringValue else {
            throw TestFailure("create failed: \(response.status) \(response.text)")
        }
        return id
    }

    private func update(_ server: TestServer, _ className: String, _ id: String, _ fields: JSONValue, token: String? = nil) async throws {
        let response = try await server.call(
            "PUT", "/1/classes/\(className)/\(id)", json: fields, headers: token.map { [("X-Bmob-Session-Token", $0)] } ?? [])
        guard response.status == 200 else { throw TestFailure("update failed: \(response.status) \(response.text)") }
    }

    private func history(
        _ server: TestServer, _ path: String, token: String? = nil, master: Bool = false
    ) async throws -> RawHTTPResponse {
        try await server.call("GET", path, master: master, headers: token.map { [("X-Bmob-Session-Token", $0)] } ?? [])
    }

    private func results(_ response: RawHTTPResponse) -> [JSONValue] {
        response.json?["results"]?.arrayValue ?? []
    }

    @Test("an object's changes, newest first: op, date, user, door, snapshots and changed fields")
    func objectHistoryShape() async throws {
        try await withTestServer { server in
            let (userId, token) = try await server.signUpUser("ada", password: "pw-ada")
            let id = try await create(server, "Note", ["title": "draft", "stars": 1], token: token)
            try await update(server, "Note", id, ["title": "final"], token: token)
            try await update(server, "Note", id, ["stars": ["__op": "Increment", "amount": 2]])

            let response = try await history(server, "/1/history/Note/\(id)", token: token)
            #expect(response.status == 200, "\(response.text)")
            let entries = results(response)
            #expect(entries.map { $0["op"] } == ["update", "update", "create"])
            let seqs = entries.compactMap { $0["seq"]?.int64Value }
            #expect(seqs == seqs.sorted(by: >) && Set(seqs).count == 3)
            #expect(entries[0]["user"] == .null, "the anonymous update has no user")
            #expect(entries[1]["user"]?.stringValue == userId)
            #expect(entries[1]["door"] == "rest")
            #expect(entries[1]["changed"] == ["title"])
            #expect(entries[1]["before"]?["title"] == "draft")
            #expect(entries[1]["after"]?["title"] == "final")
            #expect(entries[0]["changed"] == ["stars"])
            #expect(entries[0]["after"]?["stars"]?.doubleValue == 3)
            #expect(entries[2]["before"] == .null)
            #expect(entries[2]["changed"] == ["stars", "title"])
            #expect(entries[2]["at"]?["__type"] == "Date")
            #expect(entries[2]["at"]?["iso"]?.stringValue?.count == 19)
            #expect(entries[2]["className"] == "Note" && entries[2]["objectId"]?.stringValue == id)
            // Snapshots look like objects as clients read them.
            #expect(entries[2]["after"]?["objectId"]?.stringValue == id)
            #expect(entries[2]["after"]?["createdAt"]?.stringValue?.count == 19)

            let paged = results(try await history(server, "/1/history/Note/\(id)?limit=1&skip=1"))
            #expect(paged.count == 1 && paged[0]["seq"] == entries[1]["seq"])
        }
    }

    @Test("a version the caller could not read is hidden, and so is what changed around it")
    func privateOlderVersionsAreHidden() async throws {
        try await withTestServer { server in
            let (ada, adaToken) = try await server.signUpUser("ada", password: "pw-ada")
            let (_, bobToken) = try await server.signUpUser("bob", password: "pw-bob")
            let secret: JSONValue = ["title": "secret plan", "ACL": [ada: ["read": true, "write": true]]]
            let id = try await create(server, "Plan", secret, token: adaToken)
            // Bob may not read it yet: no history either, answered as a missing object.
            let hidden = try await history(server, "/1/history/Plan/\(id)", token: bobToken)
            #expect(hidden.status == 400 && hidden.json?["code"] == 101, "\(hidden.text)")

            try await update(
                server, "Plan", id, ["title": "public plan", "ACL": ["*": ["read": true], ada: ["read": true, "write": true]]],
                token: adaToken)
            let entries = results(try await history(server, "/1/history/Plan/\(id)", token: bobToken))
            #expect(entries.count == 2)
            #expect(entries[0]["before"] == .null, "the private version stays hidden")
            #expect(entries[0]["after"]?["title"] == "public plan")
            #expect(entries[0]["changed"] == .null, "which fields changed would tell what the private version held")
            #expect(entries[1]["after"] == .null)
            #expect(!(try await history(server, "/1/history/Plan/\(id)", token: bobToken)).text.contains("secret plan"))
            // Ada sees both versions.
            let own = results(try await history(server, "/1/history/Plan/\(id)", token: adaToken))
            #expect(own[0]["before"]?["title"] == "secret plan")
            #expect(own[0]["changed"] == ["ACL", "title"])
        }
    }

    @Test("a class's history leaves out objects the caller may not read; filters on user, op, since and until")
    func classHistoryFilters() async throws {
        let clock = TestClock(start: 1_700_000_000_000)
        try await withTestServer(clock: clock.serverClock) { server in
            let (ada, adaToken) = try await server.signUpUser("ada", password: "pw-ada")
            let (_, bobToken) = try await server.signUpUser("bob", password: "pw-bob")
            let open = try await create(server, "Log", ["n": 1], token: adaToken)
            clock.advance(milliseconds: 60_000)
            let closed = try await create(
                server, "Log", ["n": 2, "ACL": [ada: ["read": true, "write": true]]], token: adaToken)
            clock.advance(milliseconds: 60_000)
            try await update(server, "Log", open, ["n": 3], token: bobToken)

            let forBob = results(try await history(server, "/1/history/Log", token: bobToken))
            #expect(forBob.map { $0["objectId"]?.stringValue } == [open, open])
            let forAda = results(try await history(server, "/1/history/Log", token: adaToken))
            #expect(Set(forAda.compactMap { $0["objectId"]?.stringValue }) == [open, closed])

            func filtered(_ condition: JSONValue) async throws -> [JSONValue] {
                results(try await history(server, "/1/history/Log?where=\(queryEncoded(condition.jsonString))", master: true))
            }
            #expect(try await filtered(["op": "update"]).count == 1)
            #expect(try await filtered(["user": .string(ada)]).count == 2)
            let middle = try await filtered(["since": ["__type": "Date", "iso": "2023-11-14 22:14:20"]])
            #expect(middle.count == 2, "\(middle)")
            let early = try await filtered(["until": "2023-11-14 22:13:30"])
            #expect(early.count == 1 && early.first?["objectId"]?.stringValue == open)
        }
    }

    @Test("deleted objects are listed with their last version and restored with their id and relations")
    func deleteAndRestore() async throws {
        try await withTestServer { server in
            let (_, token) = try await server.signUpUser("ada", password: "pw-ada")
            let tag = try await create(server, "Tag", ["name": "red"])
            let id = try await create(server, "Card", ["title": "keep me"], token: token)
            try await update(
                server, "Card", id,
                ["tags": ["__op": "AddRelation", "objects": [["__type": "Pointer", "className": "Tag", "objectId": .string(tag)]]]],
                token: token)
            let deleted = try await server.call("DELETE", "/1/classes/Card/\(id)", headers: [("X-Bmob-Session-Token", token)])
            #expect(deleted.status == 200)

            let listed = results(try await history(server, "/1/deleted/Card", token: token))
            #expect(listed.count == 1)
            #expect(listed.first?["op"] == "delete" && listed.first?["before"]?["title"] == "keep me")

            let restored = try await server.call(
                "POST", "/1/deleted/Card/\(id)/restore", json: [:], headers: [("X-Bmob-Session-Token", token)])
            #expect(restored.status == 200, "\(restored.text)")
            #expect(restored.json?["objectId"]?.stringValue == id)
            let object = try await server.call("GET", "/1/classes/Card/\(id)")
            #expect(object.json?["title"] == "keep me")
            #expect(object.json?["createdAt"] == listed.first?["before"]?["createdAt"], "the object keeps its creation date")
            let related = try await server.call(
                "GET",
                "/1/classes/Tag?where=" + queryEncoded(
                    #"{"$relatedTo":{"object":{"__type":"Pointer","className":"Card","objectId":"\#(id)"},"key":"tags"}}"#))
            #expect(related.json?["results"]?.arrayValue?.compactMap { $0["objectId"]?.stringValue } == [tag], "\(related.text)")
            #expect(results(try await history(server, "/1/deleted/Card", token: token)).isEmpty)
            // A second restore finds nothing to restore; the history shows the restore as a new change.
            let again = try await server.call("POST", "/1/deleted/Card/\(id)/restore", json: [:], master: true)
            #expect(again.json?["code"] == 101)
            let changes = results(try await history(server, "/1/history/Card/\(id)", token: token))
            #expect(changes.map { $0["op"] } == ["create", "delete", "update", "create"])
            #expect(changes.first?["door"]?.stringValue?.hasPrefix("restore:") == true)
        }
    }

    @Test("revert writes the version before a change as a new change; a revert can be reverted")
    func revertAndRevertTheRevert() async throws {
        try await withTestServer { server in
            let id = try await create(server, "Doc", ["title": "one", "draft": true])
            try await update(server, "Doc", id, ["title": "two", "draft": ["__op": "Delete"], "pages": 3])
            let changes = results(try await history(server, "/1/history/Doc/\(id)"))
            let updateSeq = try #require(changes.first?["seq"]?.int64Value)

            let reverted = try await server.call("POST", "/1/history/Doc/\(id)/revert", json: ["seq": .int(updateSeq)])
            #expect(reverted.status == 200, "\(reverted.text)")
            #expect(reverted.json?["changed"] == ["draft", "pages", "title"])
            var object = try await server.call("GET", "/1/classes/Doc/\(id)")
            #expect(object.json?["title"] == "one" && object.json?["draft"] == true && object.json?["pages"] == nil)

            let afterRevert = results(try await history(server, "/1/history/Doc/\(id)"))
            #expect(afterRevert.count == 3)
            #expect(afterRevert.first?["door"]?.stringValue == "revert:\(updateSeq)")
            let revertSeq = try #require(afterRevert.first?["seq"]?.int64Value)
            let undo = try await server.call("POST", "/1/history/Doc/\(id)/revert", json: ["seq": .int(revertSeq)])
            #expect(undo.status == 200, "\(undo.text)")
            object = try await server.call("GET", "/1/classes/Doc/\(id)")
            #expect(object.json?["title"] == "two" && object.json?["pages"] == 3 && object.json?["draft"] == nil)

            // Before its create there is no version.
            let createSeq = try #require(afterRevert.last?["seq"]?.int64Value)
            let none = try await server.call("POST", "/1/history/Doc/\(id)/revert", json: ["seq": .int(createSeq)])
            #expect(none.json?["code"] == 301, "\(none.text)")
            // A change of another object is not this object's.
            let other = try await create(server, "Doc", ["title": "x"])
            let foreign = try await server.call("POST", "/1/history/Doc/\(other)/revert", json: ["seq": .int(updateSeq)])
            #expect(foreign.json?["code"] == 101)
        }
    }

    @Test("ifUpdatedAt: a revert of a version the client did not see answers 409 and writes nothing")
    func ifUpdatedAtConflict() async throws {
        let clock = TestClock(start: 1_700_000_000_000)
        try await withTestServer(clock: clock.serverClock) { server in
            let id = try await create(server, "Doc", ["title": "one"])
            clock.advance(milliseconds: 2_000)
            try await update(server, "Doc", id, ["title": "two"])
            let seen = try #require(try await server.call("GET", "/1/classes/Doc/\(id)").json?["updatedAt"]?.stringValue)
            let seq = try #require(results(try await history(server, "/1/history/Doc/\(id)")).first?["seq"]?.int64Value)
            clock.advance(milliseconds: 2_000)
            try await update(server, "Doc", id, ["title": "three"])  // someone else's edit

            let stale = try await server.call(
                "POST", "/1/history/Doc/\(id)/revert", json: ["seq": .int(seq), "ifUpdatedAt": .string(seen)])
            #expect(stale.status == 409 || stale.json?["code"] == 409, "\(stale.text)")
            #expect(stale.json?["code"] == 409)
            #expect(try await server.call("GET", "/1/classes/Doc/\(id)").json?["title"] == "three")

            let current = try #require(try await server.call("GET", "/1/classes/Doc/\(id)").json?["updatedAt"]?.stringValue)
            let fresh = try await server.call(
                "POST", "/1/history/Doc/\(id)/revert",
                json: ["seq": .int(seq), "ifUpdatedAt": ["__type": "Date", "iso": .string(current)]])
            #expect(fresh.status == 200, "\(fresh.text)")
            #expect(try await server.call("GET", "/1/classes/Doc/\(id)").json?["title"] == "one")
        }
    }

    @Test("revert and restore need write access to the object now and to the version they bring back")
    func writeAccessToBothVersions() async throws {
        try await withTestServer { server in
            let (ada, adaToken) = try await server.signUpUser("ada", password: "pw-ada")
            let (_, bobToken) = try await server.signUpUser("bob", password: "pw-bob")
            let bob = [("X-Bmob-Session-Token", bobToken)]
            // Ada's object, readable by all, writable by Ada only: Bob may read its history but not revert it.
            let readable: JSONValue = ["*": ["read": true], ada: ["read": true, "write": true]]
            let id = try await create(server, "Memo", ["text": "a", "ACL": readable], token: adaToken)
            try await update(server, "Memo", id, ["text": "b"], token: adaToken)
            let seq = try #require(results(try await history(server, "/1/history/Memo/\(id)", token: bobToken)).first?["seq"]?.int64Value)
            let stranger = try await server.call("POST", "/1/history/Memo/\(id)/revert", json: ["seq": .int(seq)], headers: bob)
            #expect(stranger.json?["code"] == 101, "\(stranger.text)")

            // Ada opens the object to everyone: Bob may write it now, but not bring back the version only Ada could write.
            try await update(server, "Memo", id, ["text": "c", "ACL": ["*": ["read": true, "write": true]]], token: adaToken)
            let opened = results(try await history(server, "/1/history/Memo/\(id)", token: bobToken))
            let openingSeq = try #require(opened.first?["seq"]?.int64Value)
            let intoPrivate = try await server.call(
                "POST", "/1/history/Memo/\(id)/revert", json: ["seq": .int(openingSeq)], headers: bob)
            #expect(intoPrivate.json?["code"] == 101, "\(intoPrivate.text)")
            #expect(try await server.call("GET", "/1/classes/Memo/\(id)").json?["text"] == "c")

            // Restore: Bob may not bring back Ada's private object, Ada may.
            let privateId = try await create(
                server, "Memo", ["text": "mine", "ACL": [ada: ["read": true, "write": true]]], token: adaToken)
            _ = try await server.call("DELETE", "/1/classes/Memo/\(privateId)", headers: [("X-Bmob-Session-Token", adaToken)])
            #expect(results(try await history(server, "/1/deleted/Memo", token: bobToken)).isEmpty)
            let hiddenHistory = try await history(server, "/1/history/Memo/\(privateId)", token: bobToken)
            #expect(hiddenHistory.json?["code"] == 101)
            let byBob = try await server.call("POST", "/1/deleted/Memo/\(privateId)/restore", json: [:], headers: bob)
            #expect(byBob.json?["code"] == 101, "\(byBob.text)")
            let byAda = try await server.call(
                "POST", "/1/deleted/Memo/\(privateId)/restore", json: [:], headers: [("X-Bmob-Session-Token", adaToken)])
            #expect(byAda.status == 200, "\(byAda.text)")
        }
    }

    @Test("class permissions apply: no update, no revert; no create, no restore; no find, no class history")
    func classPermissionsApply() async throws {
        try await withTestServer { server in
            let id = try await create(server, "Locked", ["v": 1])
            try await update(server, "Locked", id, ["v": 2])
            let seq = try #require(results(try await history(server, "/1/history/Locked/\(id)")).first?["seq"]?.int64Value)
            let other = try await create(server, "Locked", ["v": 9])
            _ = try await server.call("DELETE", "/1/classes/Locked/\(other)")
            let permissions: JSONValue = [
                "classLevelPermissions": [
                    "get": ["*": true], "find": [:], "create": [:], "update": [:], "delete": [:], "addField": [:],
                ]
            ]
            let set = try await server.call("PUT", "/1/schemas/Locked", json: permissions, master: true)
            #expect(set.status == 200, "\(set.text)")
            #expect(try await server.call("POST", "/1/history/Locked/\(id)/revert", json: ["seq": .int(seq)]).json?["code"] == 501)
            #expect(try await server.call("POST", "/1/deleted/Locked/\(other)/restore", json: [:]).json?["code"] == 501)
            #expect(try await history(server, "/1/history/Locked").json?["code"] == 501)
            #expect(try await history(server, "/1/deleted/Locked").json?["code"] == 501)
            #expect(try await history(server, "/1/history/Locked/\(id)").status == 200, "get is allowed")
            // The master key bypasses them.
            #expect(try await server.call("POST", "/1/history/Locked/\(id)/revert", json: ["seq": .int(seq)], master: true).status == 200)
        }
    }

    @Test("a revert that would bring back a field the caller may not add is refused, and writes nothing")
    func revertOfAFieldTheCallerMayNotWrite() async throws {
        try await withTestServer { server in
            let id = try await create(server, "Sheet", ["title": "t", "note": "old note"])
            try await update(server, "Sheet", id, ["note": ["__op": "Delete"], "title": "u"])
            let seq = try #require(results(try await history(server, "/1/history/Sheet/\(id)")).first?["seq"]?.int64Value)
            // The field leaves the schema, and clients may no longer add fields.
            let dropped = try await server.call(
                "PUT", "/1/schemas/Sheet", json: ["fields": ["note": ["type": "String", "__op": "Delete"]]], master: true)
            #expect(dropped.status == 200, "\(dropped.text)")
            let closed = try await server.call(
                "PUT", "/1/schemas/Sheet", json: ["classLevelPermissions": ["addField": [:]]], master: true)
            #expect(closed.status == 200, "\(closed.text)")
            let refused = try await server.call("POST", "/1/history/Sheet/\(id)/revert", json: ["seq": .int(seq)])
            #expect(refused.json?["code"] == 501, "\(refused.text)")
            #expect(try await server.call("GET", "/1/classes/Sheet/\(id)").json?["title"] == "u")
            #expect(results(try await history(server, "/1/history/Sheet/\(id)")).count == 2, "nothing was written")
            // The master key may.
            #expect(try await server.call("POST", "/1/history/Sheet/\(id)/revert", json: ["seq": .int(seq)], master: true).status == 200)
            #expect(try await server.call("GET", "/1/classes/Sheet/\(id)").json?["note"] == "old note")
        }
    }

    @Test("restore after the class's schema changed: a removed field comes back with the object")
    func restoreAfterSchemaChange() async throws {
        try await withTestServer { server in
            let id = try await create(server, "Item", ["name": "lamp", "weight": 2.5])
            _ = try await server.call("DELETE", "/1/classes/Item/\(id)")
            let dropped = try await server.call(
                "PUT", "/1/schemas/Item", json: ["fields": ["weight": ["type": "Number", "__op": "Delete"]]], master: true)
            #expect(dropped.status == 200, "\(dropped.text)")
            let restored = try await server.call("POST", "/1/deleted/Item/\(id)/restore", json: [:])
            #expect(restored.status == 200, "\(restored.text)")
            let object = try await server.call("GET", "/1/classes/Item/\(id)")
            #expect(object.json?["weight"]?.doubleValue == 2.5 && object.json?["name"] == "lamp")
        }
    }

    @Test("_User: history hides passwords and other users' protected fields; users are not reverted or restored here")
    func usersHistory() async throws {
        try await withTestServer { server in
            let (ada, adaToken) = try await server.signUpUser("ada", password: "pw-ada", ["email": "ada@example.com"])
            let (_, bobToken) = try await server.signUpUser("bob", password: "pw-bob")
            let changed = try await server.call(
                "PUT", "/1/users/\(ada)", json: ["email": "ada@example.org", "nickname": "A"],
                headers: [("X-Bmob-Session-Token", adaToken)])
            #expect(changed.status == 200, "\(changed.text)")
            let forBob = try await history(server, "/1/history/_User/\(ada)", token: bobToken)
            #expect(forBob.status == 200, "\(forBob.text)")
            #expect(!forBob.text.contains("example."), "another user's email is protected")
            #expect(!forBob.text.contains("pw-ada") && !forBob.text.contains("password"))
            #expect(results(forBob).first?["changed"] == ["nickname"])
            let forAda = try await history(server, "/1/history/_User/\(ada)", token: adaToken)
            #expect(forAda.text.contains("ada@example.org"))
            #expect(results(forAda).first?["changed"] == ["email", "nickname"])
            let seq = try #require(results(forAda).first?["seq"]?.int64Value)
            let revert = try await server.call(
                "POST", "/1/history/_User/\(ada)/revert", json: ["seq": .int(seq)], master: true)
            #expect(revert.json?["code"] == 103, "\(revert.text)")
        }
    }

    @Test("tokens an older server stored in a user's authData stay out of history, for the master key too")
    func legacyTokensStayHidden() async throws {
        try await withTestServer { server in
            let legacy = try await server.seedObject(
                className: "_User", objectId: "legacyuser1",
                fields: [
                    "username": "old", "sessionToken": "OLD-SESSION",
                    "authData": ["weibo": ["uid": "w-old", "id": "w-old", "access_token": "OLD-SECRET"]],
                ])
            // The next login drops the token from the object; the journal still holds the version before it.
            let login = try await server.call("POST", "/1/users", json: ["authData": ["weibo": ["uid": "w-old", "access_token": "NEW"]]])
            #expect(login.json?["objectId"]?.stringValue == legacy, "\(login.text)")
            for master in [true, false] {
                let history = try await server.call("GET", "/1/history/_User/\(legacy)", master: master)
                #expect(history.status == 200, "\(history.text)")
                #expect(!history.text.contains("OLD-SECRET") && !history.text.contains("OLD-SESSION") && !history.text.contains("NEW\""))
                #expect(history.json?["results"]?.arrayValue?.isEmpty == false)
            }
            let classHistory = try await server.call("GET", "/1/history/_User", master: true)
            #expect(!classHistory.text.contains("OLD-SECRET"))
        }
    }

    @Test("hostile input: bad filters, seqs, dates and names are refused with Bmob's shape, never a 500")
    func hostileInput() async throws {
        try await withTestServer { server in
            let id = try await create(server, "Doc", ["title": "one"])
            let bad = [
                "/1/history/Doc?where=" + queryEncoded(#"{"op":"drop"}"#),
                "/1/history/Doc?where=" + queryEncoded(#"{"since":"yesterday"}"#),
                "/1/history/Doc?where=" + queryEncoded(#"{"user":{"$ne":null}}"#),
                "/1/history/Doc?where=" + queryEncoded(#"{"objectId":"x"}"#),
                "/1/history/Doc?where=" + queryEncoded(#"[1]"#),
                "/1/history/Doc?where=%7B",
                "/1/history/Doc?limit=5000",
                "/1/history/Doc?limit=-1",
                "/1/history/Doc?skip=99999999999",
                "/1/history/Doc/\(id)?limit=abc",
            ]
            for target in bad {
                let response = try await server.call("GET", target)
                #expect(response.status == 400, "\(target): \(response.text)")
                #expect(response.json?["code"] == 102 && response.json?["error"]?.stringValue != nil, "\(target)")
            }
            #expect(try await server.call("GET", "/1/history/Bad-Name").json?["code"] == 103)
            #expect(try await server.call("GET", "/1/history/Doc/nope").json?["code"] == 101)
            for body: JSONValue in [[:], ["seq": "1"], ["seq": -4], ["seq": 1.5]] {
                let response = try await server.call("POST", "/1/history/Doc/\(id)/revert", json: body)
                #expect(response.json?["code"] == 118 || response.json?["code"] == 107, "\(body): \(response.text)")
            }
            let badDate = try await server.call(
                "POST", "/1/history/Doc/\(id)/revert", json: ["seq": 1, "ifUpdatedAt": "soon"])
            #expect(badDate.json?["code"] == 107)
            let missing = try await server.call("POST", "/1/history/Doc/\(id)/revert", json: ["seq": 999_999])
            #expect(missing.json?["code"] == 101)
            let notJSON = try await server.request(
                "POST", "/1/history/Doc/\(id)/revert", headers: server.appHeaders + [("Content-Type", "application/json")],
                body: Array("{".utf8))
            #expect(notJSON.json?["code"] == 107)
        }
    }

    @Test("serverInfo: the public part without keys; the app's history retention with them; a bad key is refused")
    func serverInfo() async throws {
        try await withTestServer { server in
            let open = try await server.request("GET", "/1/serverInfo", headers: [])
            #expect(open.status == 200)
            #expect(open.json?["capabilities"]?.arrayValue?.contains("history") == true)
            #expect(open.json?["limits"]?["batchSize"] == 50)
            #expect(open.json?["realtime"]?["socketIO"]?.stringValue?.hasSuffix("/socket.io/1/") == true)
            #expect(open.json?["history"] == nil)
            let keyed = try await server.call("GET", "/1/serverInfo")
            #expect(keyed.json?["history"] == ["keepChanges": .null, "keepDays": .null])
            let wrong = try await server.request(
                "GET", "/1/serverInfo", headers: [("X-Bmob-Application-Id", TestServer.applicationId), ("X-Bmob-REST-API-Key", "nope")])
            #expect(wrong.status == 401 && wrong.json?["code"] != nil)
        }
    }

    @Test("retention: the newest N changes of each object stay; pruning leaves the journal's numbering intact")
    func retentionKeepsTheNewestChanges() async throws {
        let server = try await TestServer.start(history: JournalRetention(keepChanges: 2)) {
            $0.historyPruneGraceSeconds = 0
            $0.historyPruneIntervalSeconds = 0
        }
        do {
            let id = try await create(server, "Counter", ["n": 0])
            for n in 1...5 { try await update(server, "Counter", id, ["n": .int(Int64(n))]) }
            let other = try await create(server, "Counter", ["n": 100])
            // Every request may start a pruning in the background; wait until one has run.
            var kept: [JSONValue] = []
            _ = try await eventually {
                kept = results(try await history(server, "/1/history/Counter/\(id)"))
                return kept.count == 2
            }
            #expect(kept.map { $0["after"]?["n"] } == [5, 4])
            #expect(results(try await history(server, "/1/history/Counter/\(other)")).count == 1)
            // Reverting to before a pruned change answers 101; new changes get larger numbers than any before.
            let newest = try #require(kept.first?["seq"]?.int64Value)
            #expect(try await server.call("POST", "/1/history/Counter/\(id)/revert", json: ["seq": 1]).json?["code"] == 101)
            try await update(server, "Counter", id, ["n": 6])
            let next = results(try await history(server, "/1/history/Counter/\(id)")).first?["seq"]?.int64Value ?? 0
            #expect(next > newest)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    @Test("retention by days: older changes go, younger stay, and deleted objects older than that are gone")
    func retentionByDays() async throws {
        let clock = TestClock(start: 1_700_000_000_000)
        let server = try await TestServer.start(clock: clock.serverClock, history: JournalRetention(keepDays: 1)) {
            $0.historyPruneGraceSeconds = 0
            $0.historyPruneIntervalSeconds = 0
        }
        do {
            let old = try await create(server, "Event", ["n": 1])
            let gone = try await create(server, "Event", ["n": 2])
            _ = try await server.call("DELETE", "/1/classes/Event/\(gone)")
            clock.advance(milliseconds: 2 * 86_400_000)
            let young = try await create(server, "Event", ["n": 3])
            var remaining: [JSONValue] = []
            _ = try await eventually {
                remaining = results(try await history(server, "/1/history/Event", master: true))
                return remaining.count == 1
            }
            #expect(remaining.compactMap { $0["objectId"]?.stringValue } == [young])
            #expect(results(try await history(server, "/1/deleted/Event", master: true)).isEmpty)
            #expect(try await server.call("GET", "/1/classes/Event/\(old)").status == 200, "retention prunes history, never objects")
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    @Test("concurrent edits: reverts without ifUpdatedAt and updates interleave, every change lands in the history")
    func concurrentEdits() async throws {
        try await withTestServer { server in
            let id = try await create(server, "Board", ["v": 0])
            try await update(server, "Board", id, ["v": 1])
            let seq = try #require(results(try await history(server, "/1/history/Board/\(id)")).first?["seq"]?.int64Value)
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<6 {
                    group.addTask {
                        if index.isMultiple(of: 2) {
                            let response = try await server.call("POST", "/1/history/Board/\(id)/revert", json: ["seq": .int(seq)])
                            return response.status
                        }
                        return try await server.call("PUT", "/1/classes/Board/\(id)", json: ["v": .int(Int64(10 + index))]).status
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.allSatisfy { $0 == 200 }, "\(statuses)")
            let changes = results(try await history(server, "/1/history/Board/\(id)"))
            #expect(changes.count == 8)
            // Each change starts from the version the one before it left.
            for (newer, older) in zip(changes, changes.dropFirst()) {
                #expect(newer["before"]?["v"] == older["after"]?["v"])
            }
        }
    }
}
