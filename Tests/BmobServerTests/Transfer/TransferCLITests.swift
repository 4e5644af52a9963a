import BmobCrypto
import BmobIO
import BmobServer
import BmobStore
import BmobTesting
import BmobWire
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `bmob export` and `bmob import` run as operators run them, and the imported apps served by `bmob serve`.
@Suite struct TransferCLITests {
    private func createApp(_ data: String, _ id: String) async throws {
        let created = try await CLITests.runOnItsOwnThread(["apps", "create", "--data", data, "--name", id, "--app-id", id, "--rest-key", "rk-\(id)", "--master-key", "mk-\(id)"])
        #expect(created.status == 0, "\(created.stderr)")
    }

    private func request(
        _ connection: RawHTTPConnection, _ app: String, _ method: String, _ target: String, json: String? = nil, master: Bool = false
    ) async throws -> RawHTTPResponse {
        let headers = [("X-Bmob-Application-Id", app), master ? ("X-Bmob-Master-Key", "mk-\(app)") : ("X-Bmob-REST-API-Key", "rk-\(app)")]
        if let json {
            try await connection.send(HTTPRequestText.make(method, target, headers: headers, json: json))
        } else {
            try await connection.send(HTTPRequestText.make(method, target, headers: headers))
        }
        return try await connection.readResponse()
    }

    /// Every file of an export folder, parsed.
    private func exported(_ folder: String) throws -> [String: JSONValue] {
        var files: [String: JSONValue] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            files[name] = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))))
        }
        return files
    }

    @Test func exportImportExportIsEqualAndTheImportedAppServesItsUsersAndObjects() async throws {
        let data = CLITests.temporaryPath("transfer-data")
        let first = CLITests.temporaryPath("transfer-first")
        let second = CLITests.temporaryPath("transfer-second")
        defer { for path in [data, first, second] { try? FileManager.default.removeItem(atPath: path) } }
        try await createApp(data, "source")
        try await createApp(data, "target")

        let server = try await CLITests.serveOnFreePort(data)
        defer { server.process.send(SIGKILL) }
        let client = try RawHTTPConnection(port: server.port)
        let signup = try await request(client, "source", "POST", "/1/users", json: #"{"username":"alice","password":"s3cret!","age":30}"#)
        #expect(signup.status == 201, "\(signup.text)")
        let aliceId = signup.json?["objectId"]?.stringValue ?? ""
        let role = try await request(
            client, "source", "POST", "/1/roles",
            json: #"{"name":"editors","ACL":{"*":{"read":true}},"users":{"__op":"AddRelation","objects":[{"__type":"Pointer","className":"_User","objectId":"\#(aliceId)"}]}}"#,
            master: true)
        #expect(role.status == 201, "\(role.text)")
        for index in 0..<5 {
            let note = try await request(
                client, "source", "POST", "/1/classes/Note",
                json: #"{"n":\#(index),"title":"note \#(index)","author":{"__type":"Pointer","className":"_User","objectId":"\#(aliceId)"},"due":{"__type":"Date","iso":"2026-05-0\#(index + 1) 10:00:00"},"where":{"__type":"GeoPoint","latitude":30.5,"longitude":114.25},"tags":["a","b"],"ACL":{"*":{"read":true},"\#(aliceId)":{"read":true,"write":true}}}"#)
            #expect(note.status == 201, "\(note.text)")
        }
        let schema = try await request(
            client, "source", "PUT", "/1/schemas/Note",
            json: #"{"indexes":[["n"],["title","n"],{"fields":["title"],"unique":true}],"classLevelPermissions":{"delete":{},"get":{"*":true}}}"#, master: true)
        #expect(schema.status == 200, "\(schema.text)")
        let notes = try await request(client, "source", "GET", "/1/classes/Note?order=objectId", master: true)
        server.process.send(SIGTERM)
        #expect(await server.process.waitForExit() == .exited(0))

        let export = try await CLITests.runOnItsOwnThread(["export", "--data", data, "--app", "source", "--to", first])
        #expect(export.status == 0, "\(export.stdout) \(export.stderr)")
        #expect(export.stdout.contains("Note  5"))
        let files = try exported(first)
        #expect(files["_User.json"]?["results"]?.arrayValue?.first?["_hashed_password"]?.stringValue?.hasPrefix("$scrypt$") == true)
        #expect(files["_Join:users:_Role.json"]?["results"]?.arrayValue?.first?["relatedId"]?.stringValue == aliceId)
        let noteSchema = files["_schema.json"]?["results"]?.arrayValue?.first { $0["className"] == "Note" }
        #expect(noteSchema?["indexes"] == [["n"], ["title", "n"], ["fields": ["title"], "unique": true]])
        #expect(noteSchema?["classLevelPermissions"]?["delete"] == [:])
        #expect(noteSchema?["fields"]?["author"] == ["type": "Pointer", "targetClass": "_User"])

        let imported = try await CLITests.runOnItsOwnThread(["import", "--data", data, "--app", "target", "--from", first])
        #expect(imported.status == 0, "\(imported.stdout) \(imported.stderr)")
        #expect(imported.stdout.contains("Note  5"))
        #expect(!imported.stderr.contains("\r"))

        let again = try await CLITests.runOnItsOwnThread(["export", "--data", data, "--app", "target", "--to", second])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try exported(second) == files)

        // A second import refuses the objects that exist, and says so.
        let twice = try await CLITests.runOnItsOwnThread(["import", "--data", data, "--app", "target", "--from", first])
        #expect(twice.status == 1)
        #expect(twice.stderr.contains("exists (pass --overwrite to replace it)"))
        #expect(try await CLITests.runOnItsOwnThread(["import", "--data", data, "--app", "target", "--from", first, "--overwrite"]).status == 0)
        // A user whose username another user of the app has is refused, not imported beside it.
        let clash = CLITests.temporaryPath("transfer-clash")
        defer { try? FileManager.default.removeItem(atPath: clash) }
        try FileManager.default.createDirectory(atPath: clash, withIntermediateDirectories: true)
        try Data(#"[{"objectId":"other1","username":"alice"}]"#.utf8).write(to: URL(fileURLWithPath: clash + "/_User.json"))
        let clashed = try await CLITests.runOnItsOwnThread(["import", "--data", data, "--app", "target", "--from", clash])
        #expect(clashed.status == 1)
        #expect(clashed.stderr.contains("the username 'alice' belongs to the existing user \(aliceId)"))

        let copy = try await CLITests.serveOnFreePort(data)
        defer { copy.process.send(SIGKILL) }
        let served = try RawHTTPConnection(port: copy.port)
        let login = try await request(served, "target", "GET", "/1/login?username=alice&password=s3cret!")
        #expect(login.status == 200, "\(login.text)")
        #expect(login.json?["objectId"]?.stringValue == aliceId)
        let copiedNotes = try await request(served, "target", "GET", "/1/classes/Note?order=objectId", master: true)
        #expect(copiedNotes.status == 200)
        #expect(copiedNotes.json == notes.json)
        copy.process.send(SIGTERM)
        #expect(await copy.process.waitForExit() == .exited(0))
    }

    @Test func aParseExportImportsAndItsBcryptUserLogsInAndIsRehashed() async throws {
        let data = CLITests.temporaryPath("parse-data")
        let folder = CLITests.temporaryPath("parse-export")
        defer { for path in [data, folder] { try? FileManager.default.removeItem(atPath: path) } }
        try await createApp(data, "fromparse")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let hash = Bcrypt.hash(password: Array("hunter22".utf8), salt: Array(repeating: 7, count: 16), cost: 4)
        let files: [String: String] = [
            // MongoDB documents, as Parse keeps them.
            "_User.json": #"""
                {"results":[{"_id":"pUser1","username":"bob","email":"bob@example.com","_hashed_password":"\#(hash)",
                 "_created_at":{"$date":"2020-01-02T03:04:05.678Z"},"_updated_at":"2020-02-03T04:05:06.789Z",
                 "_rperm":["*","pUser1"],"_wperm":["pUser1"],"_email_verify_token":"abc","_auth_data_facebook":{"id":"1"}}]}
                """#,
            "_Role.json": #"[{"_id":"role1","name":"staff","_acl":{"*":{"r":true}},"_created_at":"2020-01-01T00:00:00.000Z","_updated_at":"2020-01-01T00:00:00.000Z"}]"#,
            "_Join:users:_Role.json": #"{"results":[{"owningId":"role1","relatedId":"pUser1"}]}"#,
            // One post as MongoDB keeps it, one in the REST shape.
            "Post.json": #"""
                {"results":[
                 {"_id":"post1","title":"hello","_p_author":"_User$pUser1","published":{"$date":"2021-06-01T12:00:00.000Z"},
                  "_created_at":"2021-06-01T12:00:00.000Z","_updated_at":"2021-06-01T12:00:00.000Z"},
                 {"objectId":"post2","title":"world","author":{"__type":"Pointer","className":"_User","objectId":"pUser1"},
                  "createdAt":"2021-06-02T12:00:00.000Z","updatedAt":"2021-06-02T12:00:00.000Z","ACL":{"*":{"read":true}}}]}
                """#,
            // mongoexport's default output, a document a line: GeoPoints as [longitude, latitude] and files as bare
            // names, which only the schema collection tells apart from arrays and strings.
            "_SCHEMA.json": """
                {"_id":"Place","objectId":"string","where":"geopoint","photo":"file","tags":"array","_metadata":{"indexes":{}}}
                {"_id":"_User","objectId":"string","username":"string"}
                """,
            "Place.json": """
                {"_id":"place1","where":[114.25,30.5],"photo":"tfss-1-photo.jpg","tags":[1,2],"_created_at":{"$date":"2021-07-01T00:00:00Z"},"_updated_at":{"$date":"2021-07-01T00:00:00Z"}}
                {"_id":"place2","tags":[],"_created_at":{"$date":"2021-07-02T00:00:00Z"},"_updated_at":{"$date":"2021-07-02T00:00:00Z"}}
                """,
        ]
        for (name, text) in files { try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/" + name)) }
        let imported = try await CLITests.runOnItsOwnThread(["import", "--data", data, "--app", "fromparse", "--from", folder, "--format", "parse"])
        #expect(imported.status == 0, "\(imported.stdout) \(imported.stderr)")
        #expect(imported.stdout.contains("dropped _User._email_verify_token from 1 object(s)"))
        #expect(imported.stdout.contains("1 relation member(s)"))

        let server = try await CLITests.serveOnFreePort(data)
        defer { server.process.send(SIGKILL) }
        let client = try RawHTTPConnection(port: server.port)
        let wrong = try await request(client, "fromparse", "GET", "/1/login?username=bob&password=nope")
        #expect(wrong.json?["code"] == 101)
        let login = try await request(client, "fromparse", "GET", "/1/login?username=bob&password=hunter22")
        #expect(login.status == 200, "\(login.text)")
        #expect(login.json?["objectId"] == "pUser1")
        #expect(login.json?["createdAt"] == "2020-01-02 03:04:05")
        let post = try await request(client, "fromparse", "GET", "/1/classes/Post/post1", master: true)
        #expect(post.json?["author"]?["objectId"] == "pUser1")
        #expect(post.json?["published"]?["iso"] == "2021-06-01 12:00:00")
        let place = try await request(client, "fromparse", "GET", "/1/classes/Place/place1", master: true)
        #expect(place.json?["where"] == ["__type": "GeoPoint", "latitude": 30.5, "longitude": 114.25], "\(place.text)")
        #expect(place.json?["photo"]?["__type"] == "File")
        #expect(place.json?["photo"]?["filename"] == "tfss-1-photo.jpg")
        #expect(place.json?["tags"] == [1, 2])
        let near = try await request(
            client, "fromparse", "GET",
            "/1/classes/Place?where=%7B%22where%22%3A%7B%22%24nearSphere%22%3A%7B%22__type%22%3A%22GeoPoint%22%2C%22latitude%22%3A30.5%2C%22longitude%22%3A114.2%7D%7D%7D",
            master: true)
        #expect(near.json?["results"]?.arrayValue?.map { $0["objectId"] } == ["place1"], "\(near.text)")
        server.process.send(SIGTERM)
        #expect(await server.process.waitForExit() == .exited(0))

        let store = try await SQLiteStore.open(.init(path: data + "/apps/fromparse/data.sqlite"))
        let (credential, members, user) = try await store.read { transaction in
            (
                try transaction.credential(userId: "pUser1"),
                try transaction.relationTargets(className: "_Role", objectId: "role1", key: "users"),
                try transaction.fetch(className: "_User", objectId: "pUser1")
            )
        }
        await store.close()
        #expect(credential?.hasPrefix("$scrypt$") == true, "the bcrypt hash is replaced at the first login")
        #expect(members == [PointerValue(className: "_User", objectId: "pUser1")])
        #expect(user?.acl == ["*": ["read": true], "pUser1": ["read": true, "write": true]])
        #expect(user?.createdAt == 1_577_934_245_678)
    }

    @Test func aBmobConsoleExportImportsWithItsDates() async throws {
        let data = CLITests.temporaryPath("console-data")
        let folder = CLITests.temporaryPath("console-export")
        defer { for path in [data, folder] { try? FileManager.default.removeItem(atPath: path) } }
        try await createApp(data, "fromconsole")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(#"[{"objectId":"a1b2c3d4e5","createdAt":"2019-03-04 05:06:07","updatedAt":"2019-03-05 05:06:07","score":9,"when":{"__type":"Date","iso":"2019-03-04 00:00:00"}}]"#.utf8)
            .write(to: URL(fileURLWithPath: folder + "/GameScore.json"))
        let imported = try await CLITests.runOnItsOwnThread(["import", "--data", data, "--app", "fromconsole", "--from", folder, "--format", "bmob-console"])
        #expect(imported.status == 0, "\(imported.stderr)")
        let store = try await SQLiteStore.open(.init(path: data + "/apps/fromconsole/data.sqlite"))
        let object = try await store.read { try $0.fetch(className: "GameScore", objectId: "a1b2c3d4e5") }
        await store.close()
        #expect(object?.createdAt == 1_551_675_967_000)
        #expect(object?.updatedAt == 1_551_762_367_000)
        #expect(object?.fields["score"] == 9)
    }

    @Test(.enabled(if: TestPostgres.isSelected)) func exportAndImportWorkOnPostgreSQLToo() async throws {
        let (database, url) = try TestPostgres.makeDatabase()
        let data = CLITests.temporaryPath("pg-transfer-data")
        let fixtures = CLITests.temporaryPath("pg-transfer-fixtures")
        let first = CLITests.temporaryPath("pg-transfer-first")
        let second = CLITests.temporaryPath("pg-transfer-second")
        defer {
            for path in [data, fixtures, first, second] { try? FileManager.default.removeItem(atPath: path) }
            TestPostgres.dropDatabase(database)
        }
        for app in ["pgsource", "pgtarget"] {
            #expect(try await CLITests.runOnItsOwnThread(["apps", "create", "--data", data, "--name", app, "--app-id", app, "--database", url]).status == 0)
        }
        try FileManager.default.createDirectory(atPath: fixtures, withIntermediateDirectories: true)
        try Data(#"[{"objectId":"n1","createdAt":"2020-01-02 03:04:05","title":"x","ACL":{"*":{"read":true}}},{"objectId":"n2","owner":{"__type":"Pointer","className":"_User","objectId":"u1"}}]"#.utf8)
            .write(to: URL(fileURLWithPath: fixtures + "/Note.json"))
        let seeded = try await CLITests.runOnItsOwnThread(["import", "--data", data, "--app", "pgsource", "--from", fixtures, "--format", "bmob-console", "--database", url])
        #expect(seeded.status == 0, "\(seeded.stderr)")
        #expect(try await CLITests.runOnItsOwnThread(["export", "--data", data, "--app", "pgsource", "--to", first, "--database", url]).status == 0)
        #expect(try await CLITests.runOnItsOwnThread(["import", "--data", data, "--app", "pgtarget", "--from", first, "--database", url]).status == 0)
        #expect(try await CLITests.runOnItsOwnThread(["export", "--data", data, "--app", "pgtarget", "--to", second, "--database", url]).status == 0)
        let files = try exported(first)
        #expect(files["Note.json"]?["results"]?.arrayValue?.count == 2)
        #expect(try exported(second) == files)
    }

    @Test func helpAndUsage() async throws {
        let help = try await CLITests.runOnItsOwnThread(["help"])
        #expect(help.stdout.contains("export") && help.stdout.contains("import"))
        #expect(try await CLITests.runOnItsOwnThread(["export", "--help"]).stdout.contains("_schema.json"))
        #expect(try await CLITests.runOnItsOwnThread(["import", "--help"]).stdout.contains("bmob-console"))
        #expect(try await CLITests.runOnItsOwnThread(["import", "--data", "x", "--app", "y", "--from", "z", "--format", "csv"]).status == 2)
    }
}
