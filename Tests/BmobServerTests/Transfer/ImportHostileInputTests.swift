import BmobServer
import BmobStore
import BmobWire
import Foundation
import Testing

/// Import folders that must be refused whole, with every problem named and nothing written.
@Suite struct ImportHostileInputTests {
    private func refusal(_ files: [String: String], format: ImportFormat = .bmob, maximumFileBytes: Int = 1 << 20) async throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bmob-hostile-\(UUID().uuidString)").path
        let database = folder + ".sqlite"
        defer {
            try? FileManager.default.removeItem(atPath: folder)
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database + suffix) }
        }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (name, text) in files { try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/" + name)) }
        let store = try await SQLiteStore.open(.init(path: database))
        var message = ""
        do {
            _ = try await AppImport(store: store, applicationId: "hostile", format: format, overwrite: false, maximumFileBytes: maximumFileBytes)
                .run(from: folder) { _ in }
            Issue.record("the import was not refused")
        } catch let error as TransferError {
            message = error.description
        }
        let classes = try await store.read { try $0.classNames() }
        await store.close()
        #expect(classes.isEmpty, "a refused import wrote \(classes)")
        return message
    }

    @Test func malformedJSONIsRefused() async throws {
        let message = try await refusal(["Note.json": #"{"results":[{"objectId":"a1"#, "Good.json": #"{"results":[{"objectId":"g1"}]}"#])
        #expect(message.contains("Note.json: not valid JSON"))
    }

    @Test func parseGeoPointsMustBeCoordinatePairsAndItsSchemaNeedsTheParseFormat() async throws {
        let schema = #"[{"_id":"Place","where":"geopoint"}]"#
        let message = try await refusal(
            ["_SCHEMA.json": schema, "Place.json": #"[{"_id":"p1","where":[1]},{"_id":"p2","where":["a","b"]},{"_id":"p3","where":[500,1]}]"#],
            format: .parse)
        #expect(message.contains("object 1 (p1): 'where' is a geopoint but not [longitude, latitude]"))
        #expect(message.contains("object 2 (p2): 'where' is a geopoint but not [longitude, latitude]"))
        #expect(message.contains("object 3 (p3)"), "a longitude out of range is refused as the REST door refuses it")
        let unnamed = try await refusal(["_SCHEMA.json": #"[{"where":"geopoint"}]"#, "Place.json": #"[{"_id":"p1"}]"#], format: .parse)
        #expect(unnamed.contains("_SCHEMA.json: document 1: expected"))
        let notParse = try await refusal(["_SCHEMA.json": schema, "Place.json": #"[{"objectId":"p1"}]"#])
        #expect(notParse.contains("_SCHEMA.json: Parse's schema collection, read only with --format parse"))
    }

    @Test func aFieldWhoseTypeChangesIsRefused() async throws {
        let message = try await refusal([
            "Note.json": #"{"results":[{"objectId":"a1","n":1},{"objectId":"a2","n":"one"},{"objectId":"a3","d":{"__type":"Date","iso":"never"}}]}"#
        ])
        #expect(message.contains("object 2 (a2): 'n' is String here but Number"))
        #expect(message.contains("invalid date for key 'd'"))
    }

    @Test func invalidNamesAndIdsAreRefused() async throws {
        let message = try await refusal([
            "bad-name.json": "[]", "../escape.json": "[]",
            "Note.json": #"[{"objectId":"../../x"},{"objectId":"ok","bad.field":1},{"objectId":"ok2","ACL":{"*":{"read":"yes"}}}, 7]"#,
        ])
        #expect(message.contains("bad-name.json: not a class file"))
        #expect(message.contains("'objectId' must be 1 to 64"))
        #expect(message.contains("'bad.field' is not a valid field name"))
        #expect(message.contains("'ACL.*' must be"))
        #expect(message.contains("object 4: expected a JSON object"))
    }

    @Test func aBadSchemaFileIsRefused() async throws {
        let message = try await refusal([
            "_schema.json": #"{"results":[{"className":"Note","fields":{"n":{"type":"Money"},"p":{"type":"Pointer"}},"classLevelPermissions":{"find":{"*":"yes"}}},{"className":"bad name"}]}"#,
            "Note.json": "[]",
        ])
        #expect(message.contains("'n' has no known type"))
        #expect(message.contains("'p' needs a valid targetClass"))
        #expect(message.contains("'classLevelPermissions'"))
        #expect(message.contains("class 2: 'className' must be a valid class name"))
    }

    @Test func usersSharingAUsernameAreRefused() async throws {
        let message = try await refusal(["_User.json": #"[{"objectId":"u1","username":"amy"},{"objectId":"u2","username":"amy"}]"#])
        #expect(message.contains("users u1 and u2 share the username 'amy'"))
    }

    @Test func anOversizedFileIsRefusedBeforeItIsRead() async throws {
        let big = "[" + String(repeating: #"{"objectId":"x"},"#, count: 100) + "{}]"
        let message = try await refusal(["Note.json": big], maximumFileBytes: 1000)
        #expect(message.contains("is more than the 1000 an import reads per file"))
    }

    @Test func parseHashesMustBeHashesAndJoinsNeedATarget() async throws {
        let message = try await refusal(
            [
                "_User.json": #"[{"_id":"u1","username":"a","_hashed_password":"plain"}]"#,
                "_Join:likes:Post.json": #"[{"owningId":"p1","relatedId":"u1"}]"#,
            ], format: .parse)
        #expect(message.contains("'_hashed_password' must be a bcrypt"))
        #expect(message.contains("the class the relation points to is unknown"))
    }
}
