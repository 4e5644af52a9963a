import BmobSDK
import BmobTesting
import BmobWire
import Foundation
import Testing

extension EndToEnd {
    @Suite("BmobObject behaviour")
    struct ObjectBehaviourTests {
        @Test("save sends only changed keys: a field changed elsewhere survives")
        func updatesOnlyChangedKeys() async throws {
            let server = try await SDKFixture.server()
            let note = BmobObject(className: "Note", data: ["title": "原标题", "body": "正文"])
            try await note.save()
            let id = try #require(note.objectId)
            // Someone else changes `body` through REST.
            let response = try await server.request(
                "PUT", "/1/classes/Note/\(id)", headers: server.appHeaders + [("Content-Type", "application/json")],
                body: Array(#"{"body":"别人改的"}"#.utf8))
            #expect(response.status == 200)

            note["title"] = "新标题"
            try await note.save()
            let stored = try #require(try await SDKFixture.restObject("Note", id))
            #expect(stored["title"] == "新标题")
            #expect(stored["body"] == "别人改的")
            #expect(note.hasUnsavedChanges == false)
        }

        @Test("increment, decrement, add, addUnique, remove and deleteField")
        func operations() async throws {
            let counter = BmobObject(className: "Counter", data: ["n": 10, "tags": ["a"], "gone": "x"])
            try await counter.save()
            let id = try #require(counter.objectId)

            counter.increment("n", by: 5)
            counter.decrement("n")
            counter.add("tags", objects: ["b", "b"])
            try await counter.save()
            #expect(counter["n"] as? Int == 14)
            var stored = try #require(try await SDKFixture.restObject("Counter", id))
            #expect(stored["n"] == 14)
            #expect(stored["tags"] == ["a", "b", "b"])

            counter.addUnique("tags", objects: ["a", "c"])
            counter.deleteField("gone")
            try await counter.save()
            stored = try #require(try await SDKFixture.restObject("Counter", id))
            #expect(stored["tags"] == ["a", "b", "b", "c"])
            #expect(stored["gone"] == nil)

            counter.remove("tags", objects: ["b"])
            counter.increment("n", by: -20)
            try await counter.save()
            stored = try #require(try await SDKFixture.restObject("Counter", id))
            #expect(stored["tags"] == ["a", "c"])
            #expect(stored["n"] == -6)
            #expect(counter["tags"] as? [String] == ["a", "c"])
        }

        @Test("dates, geo points and relations round-trip")
        func typedValues() async throws {
            let member = BmobObject(className: "Member", data: ["name": "甲"])
            try await member.save()
            let memberPointer = try #require(BmobPointer(object: member))

            let when = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01 00:00:00 UTC
            let team = BmobObject(className: "Team")
            team["foundedAt"] = when
            team["home"] = BmobGeoPoint(latitude: 31.23, longitude: 121.47)
            team.addRelation("members", objects: [memberPointer])
            try await team.save()

            let read = try await BmobQuery(className: "Team").get(objectId: #require(team.objectId))
            #expect(read.date(forKey: "foundedAt") == when)
            #expect(read.geoPoint(forKey: "home") == BmobGeoPoint(latitude: 31.23, longitude: 121.47))
            #expect(read["members"] as? BmobRelation == BmobRelation(className: "Member"))

            let members = try await BmobQuery(className: "Member")
                .whereRelatedTo(BmobPointer(object: team)!, key: "members").find()
            #expect(members.map(\.objectId) == [member.objectId])

            team.removeRelation("members", objects: [memberPointer])
            try await team.save()
            let after = try await BmobQuery(className: "Member")
                .whereRelatedTo(BmobPointer(object: team)!, key: "members").find()
            #expect(after.isEmpty)
        }

        @Test("delete removes the object; deleting again is objectNotFound")
        func delete() async throws {
            let note = BmobObject(className: "Note", data: ["title": "删除我"])
            try await note.save()
            let id = try #require(note.objectId)
            try await note.delete()
            #expect(try await SDKFixture.restObject("Note", id) == nil)
            await #expect {
                try await note.delete()
            } throws: { error in
                guard case BmobError.objectNotFound = error else { return false }
                return true
            }
            await #expect(throws: BmobError.self) { try await BmobObject(className: "Note").delete() }
        }

        @Test("server errors keep Bmob's code: a type mismatch is 111")
        func typeMismatch() async throws {
            let first = BmobObject(className: "Typed", data: ["score": 1])
            try await first.save()
            let second = BmobObject(className: "Typed", data: ["score": "text"])
            await #expect {
                try await second.save()
            } throws: { error in
                guard case BmobError.serverError(let code, _) = error else { return false }
                return code == 111
            }
            #expect(second.objectId == nil)
        }

        @Test("a value that cannot be stored fails the save with invalidParameter, sending nothing")
        func unsupportedValue() async throws {
            struct Opaque {}
            let object = BmobObject(className: "Note")
            object["bad"] = Opaque()
            await #expect {
                try await object.save()
            } throws: { error in
                guard case BmobError.invalidParameter = error else { return false }
                return true
            }
            #expect(object.objectId == nil)
        }

        @Test("BmobBatch mixes creates, updates and deletes with per-item results")
        func batch() async throws {
            let existing = BmobObject(className: "Note", data: ["title": "旧"])
            let doomed = BmobObject(className: "Note", data: ["title": "将删除"])
            try await existing.save()
            try await doomed.save()
            existing["title"] = "新"
            let fresh = BmobObject(className: "Note", data: ["title": "新建"])
            let wrong = BmobObject(className: "Note")
            wrong.objectId = "0000000000"
            wrong["title"] = "不存在"

            let batch = BmobBatch()
            batch.save(fresh)
            batch.save(existing)
            batch.delete(doomed)
            batch.save(wrong)
            let results = try await batch.execute()

            #expect(results.count == 4)
            #expect(results[0].isSuccess && results[1].isSuccess && results[2].isSuccess)
            #expect(results[3].isSuccess == false)
            #expect(fresh.objectId != nil)
            #expect(try await SDKFixture.restObject("Note", existing.objectId ?? "")?["title"] == "新")
            #expect(try await SDKFixture.restObject("Note", doomed.objectId ?? "") == nil)
            #expect(batch.count == 0)
        }
    }
}
