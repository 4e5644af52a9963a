import BmobServer
import BmobTesting
import BmobWire
import Testing

/// `_User` privacy (issue 14, items 2 and 11): `email`, `mobilePhoneNumber` and `authData` are shown only to the
/// user and the master key and are not queryable by others; `authData` keeps only the linked ids, and what an
/// older server stored beyond them is never shown to anyone but the master key.
@Suite("Security: _User privacy and third-party tokens")
struct UserPrivacySecurityTests {
    /// Alice (email, phone, a QQ link made with an access token) and Bob.
    struct People {
        var alice = ""
        var aliceToken = ""
        var bob = ""
        var bobToken = ""

        static func make(_ server: TestServer) async throws -> People {
            var people = People()
            (people.alice, people.aliceToken) = try await server.signUpUser(
                "alice", password: "pw", ["email": "alice@example.com", "mobilePhoneNumber": "13800138000", "nick": "A"])
            (people.bob, people.bobToken) = try await server.signUpUser("bob", password: "pw")
            let linked = try await server.call(
                "PUT", "/1/users/\(people.alice)", json: ["authData": ["qq": ["openid": "qq-alice", "access_token": "SECRET-TOKEN"]]],
                headers: [("X-Bmob-Session-Token", people.aliceToken)])
            guard linked.status == 200 else { throw TestFailure("link: \(linked.text)") }
            return people
        }

        func session(_ token: String) -> [(String, String)] { [("X-Bmob-Session-Token", token)] }
    }

    static let hidden = ["email", "mobilePhoneNumber", "authData"]

    @Test("others see neither email, phone nor authData; the user and the master key do; no token is stored")
    func visibility() async throws {
        try await withTestServer { server in
            let people = try await People.make(server)
            let path = "/1/users/\(people.alice)"
            for (who, headers) in [("anonymous", []), ("bob", people.session(people.bobToken))] {
                let user = try await server.call("GET", path, headers: headers).json
                #expect(user?["username"] == "alice", "\(who)")
                #expect(user?["nick"] == "A", "\(who)")
                for field in Self.hidden { #expect(user?[field] == nil, "\(who) sees \(field)") }
                let keyed = try await server.call("GET", path + "?keys=email,authData,mobilePhoneNumber", headers: headers)
                for field in Self.hidden { #expect(keyed.json?[field] == nil, "\(who) keys=\(field)") }
                let listed = try await server.call("GET", "/1/users?limit=10", headers: headers)
                let row = listed.json?["results"]?.arrayValue?.first { $0["objectId"]?.stringValue == people.alice }
                #expect(row?["username"] == "alice")
                for field in Self.hidden { #expect(row?[field] == nil, "\(who) finds \(field)") }
            }
            let own = try await server.call("GET", path, headers: people.session(people.aliceToken)).json
            #expect(own?["email"] == "alice@example.com")
            #expect(own?["mobilePhoneNumber"] == "13800138000")
            #expect(own?["authData"] == ["qq": ["id": "qq-alice"]])
            let master = try await server.call("GET", path, master: true).json
            #expect(master?["email"] == "alice@example.com")
            // The token proved the link and was not kept.
            #expect(master?["authData"] == ["qq": ["id": "qq-alice"]])
            #expect(!(try await server.call("GET", path, master: true)).text.contains("SECRET-TOKEN"))
        }
    }

    @Test("hidden fields are not queryable by others: where, order, statistics, $select, BQL, /8/ — 501")
    func notQueryable() async throws {
        try await withTestServer { server in
            let people = try await People.make(server)
            _ = try await server.create("Invite", ["to": "alice@example.com"])
            let selectEmail: JSONValue = ["to": ["$select": ["query": ["className": "_User"], "key": "email"]]]
            let targets = [
                "/1/users?where=" + queryEncoded(#"{"email":"alice@example.com"}"#),
                "/1/users?where=" + queryEncoded(#"{"email":{"$regex":"^a"}}"#),
                "/1/users?where=" + queryEncoded(#"{"mobilePhoneNumber":{"$gt":"1"}}"#),
                "/1/users?where=" + queryEncoded(#"{"authData.qq.id":"qq-alice"}"#),
                "/1/classes/_User?where=" + queryEncoded(#"{"authData":{"$exists":true}}"#),
                "/1/users?order=email",
                "/1/users?groupby=mobilePhoneNumber&groupcount=true",
                "/1/classes/Invite?where=" + queryEncoded(selectEmail.jsonString),
                "/1/classes/Invite?where="
                    + queryEncoded(#"{"to":{"$inQuery":{"className":"_User","where":{"email":"alice@example.com"}}}}"#),
                "/1/cloudQuery?bql=" + queryEncoded("select * from _User where email = 'alice@example.com'"),
                "/1/cloudQuery?bql=" + queryEncoded("select * from Invite where to in (select email from _User)"),
            ]
            for target in targets {
                for headers in [[], people.session(people.aliceToken)] {
                    let response = try await server.call("GET", target, headers: headers)
                    #expect(response.json?["code"] == 501, "\(target): \(response.text)")
                }
                #expect(try await server.call("GET", target, master: true).status == 200, "\(target) with the master key")
            }
            let client = NativeTestClient(server)
            #expect(try await client.call("find", ["c": "_User", "data": ["where": ["email": "alice@example.com"]]]).code == 501)
            // Fields that are not hidden stay queryable.
            let byName = try await server.call("GET", "/1/users?where=" + queryEncoded(#"{"username":"alice"}"#))
            #expect(byName.json?["results"]?.arrayValue?.count == 1)
        }
    }

    @Test("include, /8/ get and realtime events redact users too")
    func otherReadPaths() async throws {
        try await withTestServer { server in
            let people = try await People.make(server)
            let pointer: JSONValue = ["__type": "Pointer", "className": "_User", "objectId": .string(people.alice)]
            let post = try await server.create("Post", ["author": pointer])
            let included = try await server.call("GET", "/1/classes/Post/\(post)?include=author").json?["author"]
            #expect(included?["username"] == "alice")
            for field in Self.hidden { #expect(included?[field] == nil, "include shows \(field)") }
            let native = try await NativeTestClient(server).data("find", ["c": "_User", "objectId": .string(people.alice)])
            #expect(native["username"] == "alice")
            for field in Self.hidden { #expect(native[field] == nil, "/8/ shows \(field)") }

            let subscriber = try await SocketIOTestClient.connect(server)
            try await subscriber.subscribe("_User", .updateRow, objectId: people.alice)
            _ = try await server.call(
                "PUT", "/1/users/\(people.alice)", json: ["nick": "B"], headers: people.session(people.aliceToken))
            let event = try await subscriber.nextEvent()
            #expect(event.data?["nick"] == "B")
            for field in Self.hidden { #expect(event.data?[field] == nil, "realtime shows \(field)") }
        }
    }

    @Test("tokens an older server stored are shown to no one but the master key, and dropped at the next login")
    func legacyTokens() async throws {
        try await withTestServer { server in
            let legacy = try await server.seedObject(
                className: "_User", objectId: "legacyuser1",
                fields: ["username": "old", "authData": ["weibo": ["uid": "w-old", "id": "w-old", "access_token": "OLD-SECRET"]]])
            let shown = try await server.call("GET", "/1/users/\(legacy)")
            #expect(shown.status == 200)
            #expect(!shown.text.contains("OLD-SECRET"))
            #expect(shown.json?["authData"] == nil)
            let login = try await server.call("POST", "/1/users", json: ["authData": ["weibo": ["uid": "w-old", "access_token": "NEW"]]])
            #expect(login.json?["objectId"]?.stringValue == legacy, "\(login.text)")
            #expect(login.json?["authData"] == ["weibo": ["id": "w-old"]])
            #expect(!login.text.contains("NEW\""))
            let stored = try await server.call("GET", "/1/users/\(legacy)", master: true)
            #expect(stored.json?["authData"] == ["weibo": ["id": "w-old"]])
        }
    }

    @Test("a password or session token left in a user's row is shown to no one but the master key, nor queryable")
    func credentialFieldsInRows() async throws {
        try await withTestServer { server in
            let legacy = try await server.seedObject(
                className: "_User", objectId: "legacyuser2",
                fields: ["username": "imported", "password": "PLAIN-PW", "sessionToken": "OLD-SESSION"])
            let (_, token) = try await server.signUpUser("viewer", password: "pw-viewer")
            for headers in [[], [("X-Bmob-Session-Token", token)]] {
                let shown = try await server.call("GET", "/1/users/\(legacy)", headers: headers)
                #expect(shown.status == 200)
                #expect(!shown.text.contains("PLAIN-PW") && !shown.text.contains("OLD-SESSION"), "\(shown.text)")
                let listed = try await server.call("GET", "/1/users", headers: headers)
                #expect(!listed.text.contains("PLAIN-PW") && !listed.text.contains("OLD-SESSION"))
            }
            for field in ["sessionToken", "password"] {
                let probe = try await server.call("GET", "/1/users?where=" + queryEncoded(#"{"\#(field)":{"$exists":true}}"#))
                #expect(probe.json?["results"] == nil && probe.json?["code"] != nil, "\(field): \(probe.text)")
            }
            let master = try await server.call("GET", "/1/users/\(legacy)", master: true)
            #expect(master.json?["sessionToken"] == "OLD-SESSION")
        }
    }

    @Test("an app may publish the fields: protectedUserFields [] shows email and phone to others")
    func configurable() async throws {
        var security = AppSecurity()
        security.protectedUserFields = []
        try await withTestServer(security: security) { server in
            let people = try await People.make(server)
            let user = try await server.call("GET", "/1/users/\(people.alice)").json
            #expect(user?["email"] == "alice@example.com")
            #expect(user?["mobilePhoneNumber"] == "13800138000")
            // authData ids become visible; tokens never are, and authData stays unqueryable.
            #expect(user?["authData"] == ["qq": ["id": "qq-alice"]])
            let byEmail = try await server.call("GET", "/1/users?where=" + queryEncoded(#"{"email":"alice@example.com"}"#))
            #expect(byEmail.json?["results"]?.arrayValue?.count == 1)
            let byLink = try await server.call("GET", "/1/users?where=" + queryEncoded(#"{"authData.qq.id":"qq-alice"}"#))
            #expect(byLink.json?["code"] == 501)
        }
    }
}
