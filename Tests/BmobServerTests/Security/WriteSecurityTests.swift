import BmobServer
import BmobTesting
import BmobWire
import Testing

/// Writes that lost data or told too much (issue 14, items 10, 16, 18 and 19): overflowing increments, a
/// `Location` built from the client's `Host`, an update refusal that revealed a private object, and an empty
/// body that made an empty object.
@Suite("Security: writes")
struct WriteSecurityTests {
    @Test("an Increment that would overflow to infinity is refused (301) and the value is kept")
    func incrementOverflow() async throws {
        try await withTestServer { server in
            let id = try await server.create("Counter", ["n": 1.7e308])
            let response = try await server.call(
                "PUT", "/1/classes/Counter/\(id)", json: ["n": ["__op": "Increment", "amount": 1.7e308]])
            #expect(response.json?["code"] == 301, "\(response.text)")
            #expect(try await server.call("GET", "/1/classes/Counter/\(id)").json?["n"] == 1.7e308)
            let down = try await server.call(
                "PUT", "/1/classes/Counter/\(id)", json: ["n": ["__op": "Increment", "amount": -1.7e308]])
            #expect(down.status == 200)
            // Integers that overflow Int64 still become doubles, as before.
            let big = try await server.create("Counter", ["n": .int(Int64.max)])
            let wrapped = try await server.call("PUT", "/1/classes/Counter/\(big)", json: ["n": ["__op": "Increment", "amount": 1]])
            #expect(wrapped.status == 200)
            #expect(try await server.call("GET", "/1/classes/Counter/\(big)").json?["n"]?.doubleValue ?? 0 > 9e18)
        }
    }

    @Test("Location comes from the public URL or is relative, never from the Host header")
    func location() async throws {
        try await withTestServer { server in
            let response = try await server.call("POST", "/1/classes/Spot", json: ["n": 1], headers: [("Host", "evil.example.com")])
            #expect(response.status == 201)
            let location = response.headers["Location"] ?? ""
            #expect(location.hasPrefix("/1/classes/Spot/"), "\(location)")
            #expect(!location.contains("evil"))
            let role = try await server.call("POST", "/1/roles", json: ["name": "Spotters"], master: true, headers: [("Host", "evil.example.com")])
            let roleLocation = role.headers["Location"] ?? ""
            #expect(roleLocation.hasPrefix("/1/roles/"), "\(roleLocation)")
        }
        try await withTestServer(configure: { $0.publicURL = "https://api.example.org" }) { server in
            let response = try await server.call("POST", "/1/classes/Spot", json: ["n": 1], headers: [("Host", "evil.example.com")])
            let location = response.headers["Location"] ?? ""
            #expect(location.hasPrefix("https://api.example.org/1/classes/Spot/"), "\(location)")
        }
    }

    @Test("updating a private object with a new field under a closed addField answers 101, as a missing object")
    func privateObjectDoesNotLeak() async throws {
        try await withTestServer { server in
            let hidden = try await server.create("Locker", ["n": 1, "ACL": ["someone": ["read": true, "write": true]]])
            let open = try await server.create("Locker", ["n": 1])
            _ = try await server.call(
                "PUT", "/1/schemas/Locker", json: ["classLevelPermissions": ["addField": [:]]], master: true)
            let body: JSONValue = ["brandNew": 1]
            let missing = try await server.call("PUT", "/1/classes/Locker/doesnotexist", json: body)
            let private_ = try await server.call("PUT", "/1/classes/Locker/\(hidden)", json: body)
            #expect(missing.json?["code"] == 101)
            #expect(private_.json?["code"] == 101, "\(private_.text)")
            #expect(private_.json?["error"]?.stringValue?.hasPrefix("object not found") == true)
            // A writable object still gets the class's refusal.
            #expect(try await server.call("PUT", "/1/classes/Locker/\(open)", json: body).json?["code"] == 501)
        }
    }

    @Test("an empty body does not create an object (107); {} does")
    func emptyBody() async throws {
        try await withTestServer { server in
            let connection = try server.connect()
            try await connection.send(
                "POST /1/classes/Empty HTTP/1.1\r\nHost: x\r\nX-Bmob-Application-Id: \(TestServer.applicationId)\r\n"
                    + "X-Bmob-REST-API-Key: \(TestServer.restKey)\r\nContent-Length: 0\r\n\r\n")
            let response = try await connection.readResponse()
            #expect(response.status == 400)
            #expect(response.json?["code"] == 107, "\(response.text)")
            let count = try await server.call("GET", "/1/classes/Empty?count=1&limit=0", master: true)
            #expect(count.json?["count"] == 0 || count.json?["results"] != nil)
            #expect(try await server.call("POST", "/1/classes/Empty", json: [:]).status == 201)
        }
    }
}
