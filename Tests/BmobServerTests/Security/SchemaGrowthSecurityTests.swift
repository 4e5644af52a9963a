import BmobServer
import BmobTesting
import BmobWire
import Testing

/// How far a client may grow an app's data (issue 14, item 7): fields per class, classes per app and object
/// size are limited for everyone (301), and creating classes or fields without the master key can be switched
/// off per app (`allowClientClassCreation`, 501).
@Suite("Security: schema growth and object size")
struct SchemaGrowthSecurityTests {
    static func limited(fields: Int = 1000, classes: Int = 1000, objectBytes: Int = 1 << 20, clientClasses: Bool = true)
        -> AppSecurity
    {
        var security = AppSecurity()
        security.maxFieldsPerClass = fields
        security.maxClasses = classes
        security.maxObjectBytes = objectBytes
        security.allowClientClassCreation = clientClasses
        return security
    }

    @Test("defaults: 1000 fields per class, 1000 classes, 1 MiB objects, client class creation on, roles off")
    func defaults() {
        let security = AppSecurity()
        #expect(security.maxFieldsPerClass == 1000)
        #expect(security.maxClasses == 1000)
        #expect(security.maxObjectBytes == 1 << 20)
        #expect(security.allowClientClassCreation)
        #expect(!security.allowClientRoleCreation)
        #expect(security.protectedUserFields == ["email", "mobilePhoneNumber", "authData"])
    }

    @Test("the probe: one object with 100,000 fields is refused with 301 and records no field")
    func hundredThousandFields() async throws {
        try await withTestServer { server in
            var body: [String: JSONValue] = [:]
            for index in 0..<100_000 { body["f\(index)"] = .int(Int64(index)) }
            let response = try await server.call("POST", "/1/classes/Wide", json: .object(body))
            #expect(response.status == 400)
            #expect(response.json?["code"] == 301, "\(response.text)")
            let schema = try await server.call("GET", "/1/schemas/Wide", master: true)
            #expect(schema.json?["code"] == 103, "the class was not created: \(schema.text)")
        }
    }

    @Test("fields per class: writes that would pass the limit are refused, by every caller, across writes")
    func fieldsPerClass() async throws {
        try await withTestServer(security: Self.limited(fields: 5)) { server in
            let id = try await server.create("Form", ["a": 1, "b": 2, "c": 3])
            #expect(try await server.call("PUT", "/1/classes/Form/\(id)", json: ["d": 4, "e": 5]).status == 200)
            let sixth = try await server.call("PUT", "/1/classes/Form/\(id)", json: ["f": 6])
            #expect(sixth.json?["code"] == 301, "\(sixth.text)")
            #expect(try await server.call("POST", "/1/classes/Form", json: ["g": 1], master: true).json?["code"] == 301)
            let schema = try await server.call("PUT", "/1/schemas/Form", json: ["fields": ["h": ["type": "Number"]]], master: true)
            #expect(schema.json?["code"] == 301, "\(schema.text)")
            // Known fields keep working.
            #expect(try await server.call("POST", "/1/classes/Form", json: ["a": 9, "e": 1]).status == 201)
        }
    }

    @Test("classes per app: the next new class is refused; existing classes keep working")
    func classesPerApp() async throws {
        try await withTestServer(security: Self.limited(classes: 3)) { server in
            for name in ["One", "Two", "Three"] { _ = try await server.create(name, ["n": 1]) }
            let fourth = try await server.call("POST", "/1/classes/Four", json: ["n": 1])
            #expect(fourth.json?["code"] == 301, "\(fourth.text)")
            let viaSchema = try await server.call("POST", "/1/schemas/Five", json: [:], master: true)
            #expect(viaSchema.json?["code"] == 301, "\(viaSchema.text)")
            #expect(try await server.call("POST", "/1/classes/Two", json: ["n": 2]).status == 201)
        }
    }

    @Test("object size: creates and growing updates past the limit are refused and change nothing")
    func objectSize() async throws {
        try await withTestServer(security: Self.limited(objectBytes: 4096)) { server in
            let big = String(repeating: "x", count: 5000)
            #expect(try await server.call("POST", "/1/classes/Blob", json: ["text": .string(big)]).json?["code"] == 301)
            let id = try await server.create("Blob", ["list": ["start"]])
            let chunk: JSONValue = .string(String(repeating: "y", count: 1000))
            var refused = false
            for _ in 0..<6 {
                let grow = try await server.call(
                    "PUT", "/1/classes/Blob/\(id)", json: ["list": ["__op": "Add", "objects": [chunk]]])
                if grow.json?["code"] == 301 {
                    refused = true
                    break
                }
                #expect(grow.status == 200, "\(grow.text)")
            }
            #expect(refused)
            let stored = try await server.call("GET", "/1/classes/Blob/\(id)", master: true)
            // "start" and four chunks fit in 4096 bytes; the fifth chunk did not.
            #expect(stored.json?["list"]?.arrayValue?.count == 5)
            #expect(stored.body.count < 4096 + 200)
        }
    }

    @Test("users are limited too: a signup or a user update past the limits is refused (301)")
    func userWrites() async throws {
        try await withTestServer(security: Self.limited(fields: 20, objectBytes: 4096)) { server in
            var wide: [String: JSONValue] = ["username": "wide", "password": "pw"]
            for index in 0..<30 { wide["f\(index)"] = .int(Int64(index)) }
            #expect(try await server.call("POST", "/1/users", json: .object(wide)).json?["code"] == 301)
            let (id, token) = try await server.signUpUser("narrow", password: "pw")
            let big = try await server.call(
                "PUT", "/1/users/\(id)", json: ["bio": .string(String(repeating: "b", count: 5000))],
                headers: [("X-Bmob-Session-Token", token)])
            #expect(big.json?["code"] == 301, "\(big.text)")
        }
    }

    @Test("allowClientClassCreation off: clients may not create classes or fields (501); the master key may")
    func clientClassCreationOff() async throws {
        try await withTestServer(security: Self.limited(clientClasses: false)) { server in
            let created = try await server.call("POST", "/1/classes/Fresh", json: ["n": 1])
            #expect(created.json?["code"] == 501, "\(created.text)")
            #expect(try await server.call("POST", "/1/classes/Fresh", json: [:]).json?["code"] == 501)
            #expect(try await server.call("POST", "/1/classes/Fresh", json: ["n": 1], master: true).status == 201)
            #expect(try await server.call("POST", "/1/classes/Fresh", json: ["n": 2]).status == 201)
            let added = try await server.call("POST", "/1/classes/Fresh", json: ["n": 3, "extra": true])
            #expect(added.json?["code"] == 501, "\(added.text)")
            let native = try await NativeTestClient(server).call("create", ["c": "Other", "data": ["n": 1]])
            #expect(native.code == 501)
        }
    }
}
