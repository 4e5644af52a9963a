import BmobWire
import Testing

/// ``NativeRequest``: native `/8/` bodies decoded per route, and the codes of what is wrong with them.
@Suite struct NativeRequestTests {
    private static let key = NativeEnvelope.key("testsecretkey001")

    private func decode(_ route: NativeRoute, _ body: JSONValue) throws -> NativeRequest {
        try NativeRequest.decode(route: route, members: body.objectValue ?? [:])
    }

    private func code(_ route: NativeRoute, _ body: JSONValue) -> Int? {
        do {
            _ = try NativeRequest.decode(route: route, members: body.objectValue ?? [:])
            return nil
        } catch {
            return error.code.rawValue
        }
    }

    @Test func commonFieldsAndObjectRoutes() throws {
        let create = try decode(
            .create,
            [
                "c": "GameScore", "data": ["score": 1], "sessionToken": "tok", "client": ["caller": "iOS"],
                "v": "v2.4.1",
                "appSign": "com.bmob.unknown/0", "timestamp": 1_761_040_954,
            ])
        #expect(
            create
                == NativeRequest(
                    route: .create, call: .create(className: "GameScore", fields: ["score": 1]), sessionToken: "tok"))
        #expect(
            try decode(.update, ["c": "A", "objectId": "x1", "data": ["n": ["__op": "Increment", "amount": 1]]]).call
                == .update(className: "A", objectId: "x1", body: ["n": ["__op": "Increment", "amount": 1]]))
        #expect(try decode(.delete, ["c": "A", "objectId": "x1"]).call == .delete(className: "A", objectId: "x1"))
        #expect(try decode(.create, ["c": "A", "data": nil]).call == .create(className: "A", fields: [:]))
        #expect(try decode(.initialize, [:]).call == .initialize)
        #expect(try decode(.timestamp, ["sessionToken": nil]).call == .timestamp)
        #expect(try decode(.schemas, ["c": nil]).call == .schemas(className: nil))
        #expect(try decode(.schemas, ["c": "A"]).call == .schemas(className: "A"))
    }

    @Test func findOneOrMany() throws {
        #expect(
            try decode(.find, ["c": "A", "objectId": "x1", "data": nil]).call
                == .get(className: "A", objectId: "x1", include: [], keys: nil))
        #expect(
            try decode(.find, ["c": "A", "objectId": "x1", "data": [:]]).call
                == .get(className: "A", objectId: "x1", include: [], keys: nil))
        #expect(
            try decode(.find, ["c": "A", "objectId": "x1", "data": ["include": "p", "keys": "a,b", "limit": 5]]).call
                == .get(className: "A", objectId: "x1", include: ["p"], keys: ["a", "b"]))
        let many = try decode(
            .find,
            [
                "c": "A",
                "data": ["where": ["score": ["$gt": 1]], "limit": 2, "skip": 1, "order": "-score", "count": true],
            ])
        guard case .find(let query) = many.call else {
            Issue.record("expected a find, got \(many.call)")
            return
        }
        #expect(query.className == "A")
        #expect(query.limit == 2 && query.skip == 1 && query.count)
        #expect(query.order == [OrderKey(path: "score", descending: true)])
        #expect(query.condition != nil)
        guard case .find(let all) = try decode(.find, ["c": "A"]).call else {
            Issue.record("expected a find")
            return
        }
        #expect(all == FindQuery(className: "A"))
    }

    @Test func batchInBothShapesAndBothPlaces() throws {
        let rest: JSONValue = ["method": "PUT", "path": "/1/classes/A/x1", "body": ["n": 1], "token": "t"]
        let native: JSONValue = ["method": "create", "c": "A", "data": ["n": 2]]
        let expected: NativeCall = .batch([
            BatchItem(action: .update(className: "A", objectId: "x1"), body: ["n": 1], sessionToken: "t"),
            BatchItem(action: .create(className: "A"), body: ["n": 2]),
        ])
        #expect(try decode(.batch, ["requests": [rest, native]]).call == expected)
        #expect(try decode(.batch, ["data": ["requests": [rest, native]]]).call == expected)
        #expect(
            try decode(.batch, ["requests": [["method": "delete", "c": "A", "objectId": "x1", "sessionToken": "s"]]])
                .call
                == .batch([BatchItem(action: .delete(className: "A", objectId: "x1"), sessionToken: "s")]))
    }

    @Test func cloudQueryValuesAsArrayOrText() throws {
        #expect(
            try decode(.cloudQuery, ["data": ["bql": "select * from A"]]).call
                == .cloudQuery(bql: "select * from A", values: []))
        #expect(
            try decode(.cloudQuery, ["data": ["bql": "select * from A where n = ?", "values": [1]]]).call
                == .cloudQuery(bql: "select * from A where n = ?", values: [1]))
        #expect(
            try decode(.cloudQuery, ["data": ["bql": "select * from A where n = ?", "values": "[2]"]]).call
                == .cloudQuery(bql: "select * from A where n = ?", values: [2]))
    }

    @Test func errorCodes() {
        #expect(code(.create, ["data": [:]]) == 103)
        #expect(code(.create, ["c": 5]) == 107)
        #expect(code(.create, ["c": "A", "data": [1]]) == 107)
        #expect(code(.update, ["c": "A", "data": [:]]) == 103)
        #expect(code(.delete, ["c": "A", "objectId": 12]) == 107)
        #expect(code(.find, ["c": "A", "data": "x"]) == 102)
        #expect(code(.find, ["c": "A", "data": ["limit": "many"]]) == 102)
        #expect(code(.find, ["c": "bad name", "data": [:]]) == 103)
        #expect(
            code(
                .find,
                [
                    "c": "A",
                    "data": [
                        "where": ["loc": ["$nearSphere": ["__type": "GeoPoint", "latitude": 95, "longitude": 0]]]
                    ],
                ]) == 117)
        #expect(code(.timestamp, ["sessionToken": 1]) == 107)
        #expect(code(.batch, [:]) == 112)
        #expect(code(.batch, ["requests": .array(Array(repeating: ["method": "create", "c": "A"], count: 51))]) == 114)
        #expect(code(.batch, ["requests": [["method": "update", "c": "A"]]]) == 113)
        #expect(code(.batch, ["requests": [["method": "fly", "c": "A"]]]) == 113)
        #expect(code(.batch, ["requests": [["method": "GET", "path": "/2/x"]]]) == 113)
        #expect(code(.batch, ["requests": [5]]) == 113)
        #expect(code(.cloudQuery, ["data": [:]]) == 601)
        #expect(code(.cloudQuery, ["data": ["bql": "select * from A", "values": "{"]]) == 601)
        #expect(code(.cloudQuery, ["data": ["bql": "select * from A", "values": 3]]) == 601)
    }

    @Test func openChecksTheRouteThenTheEnvelope() throws {
        let sealed = NativeEnvelope.seal(["c": "A", "objectId": "x1"] as JSONValue, key: Self.key)
        #expect(
            try NativeRequest.open(route: "delete", body: sealed, key: Self.key).call
                == .delete(className: "A", objectId: "x1"))
        #expect(try NativeRequest.open(route: "timestamp", body: Array(" \r\n".utf8), key: Self.key).call == .timestamp)
        let failures: [(String, [UInt8], Int)] = [
            ("push", sealed, 404),
            ("functions", sealed, 311),
            ("delete", Array("not base64!".utf8), 107),
            ("delete", NativeEnvelope.seal(["c": "A"] as JSONValue, key: NativeEnvelope.key("another key 0001")), 107),
            ("delete", NativeEnvelope.seal(Array("[1]".utf8), key: Self.key), 107),
        ]
        for (route, body, expected) in failures {
            #expect {
                try NativeRequest.open(route: route, body: body, key: Self.key)
            } throws: { error in
                guard let error = error as? BmobRequestError else { return false }
                return error.code.rawValue == expected && !error.message.isEmpty
            }
        }
    }
}
