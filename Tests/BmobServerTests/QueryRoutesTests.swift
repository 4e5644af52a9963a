import BmobServer
import BmobTesting
import BmobWire
import Foundation
import Testing

/// `GET /1/classes/<C>` and `/1/cloudQuery` through HTTP against real SQLite.
@Suite struct QueryRoutesTests {
    /// Five GameScore rows and two authors, shared by the tests of one server.
    private func seed(_ server: TestServer) async throws -> [String: String] {
        var ids: [String: String] = [:]
        ids["lu"] = try await server.create("Author", ["name": "Lu Xun"])
        ids["ba"] = try await server.create("Author", ["name": "Ba Jin"])
        let rows: [(String, Int64, String, [JSONValue], String, Double, Double)] = [
            ("Sean", 1337, "a", ["x", "y"], "lu", 39.90, 116.40),
            ("Anna", 900, "b", ["y"], "ba", 31.23, 121.47),
            ("Bob", 100, "a", [], "lu", 22.54, 114.06),
            ("Cleo", 2500, "c", ["x"], "ba", 39.91, 116.39),
            ("Dan", 900, "b", ["z"], "lu", 30.57, 104.06),
        ]
        for (name, score, team, tags, author, latitude, longitude) in rows {
            ids[name] = try await server.create("GameScore", [
                "playerName": .string(name), "score": .int(score), "team": .string(team), "tags": .array(tags),
                "author": ["__type": "Pointer", "className": "Author", "objectId": .string(ids[author]!)],
                "location": ["__type": "GeoPoint", "latitude": .double(latitude), "longitude": .double(longitude)],
                "playedAt": ["__type": "Date", "iso": .string("2024-03-0\(tags.count + 1) 10:00:00")],
            ])
        }
        return ids
    }

    private func names(_ response: RawHTTPResponse) -> [String] {
        response.json?["results"]?.arrayValue?.compactMap { $0["playerName"]?.stringValue } ?? []
    }

    private func find(_ server: TestServer, _ parameters: String) async throws -> RawHTTPResponse {
        try await server.call("GET", "/1/classes/GameScore?\(parameters)")
    }

    private func whereParam(_ json: JSONValue) -> String {
        "where=\(queryEncoded(json.jsonString))"
    }

    @Test func operatorsOrderLimitSkipAndCount() async throws {
        try await withTestServer { server in
            _ = try await seed(server)
            #expect(names(try await find(server, "order=-score")) == ["Cleo", "Sean", "Anna", "Dan", "Bob"])
            #expect(names(try await find(server, "order=score,-playerName")) == ["Bob", "Dan", "Anna", "Sean", "Cleo"])
            #expect(names(try await find(server, "order=-score&limit=2&skip=1")) == ["Sean", "Anna"])
            let cases: [(JSONValue, [String])] = [
                (["score": 900], ["Anna", "Dan"]),
                (["score": ["$eq": 900]], ["Anna", "Dan"]),
                (["score": ["$gt": 900, "$lte": 1337]], ["Sean"]),
                (["score": ["$ne": 900]], ["Bob", "Sean", "Cleo"]),
                (["score": ["$in": [100, 2500]]], ["Bob", "Cleo"]),
                (["team": ["$nin": ["a", "b"]]], ["Cleo"]),
                (["tags": "x"], ["Sean", "Cleo"]),
                (["tags": ["$all": ["x", "y"]]], ["Sean"]),
                (["tags": ["$in": ["z", "y"]]], ["Anna", "Sean", "Dan"]),
                (["playerName": ["$regex": "^[ab]", "$options": "i"]], ["Anna", "Bob"]),
                (["$or": [["team": "c"], ["score": ["$lt": 200]]]], ["Bob", "Cleo"]),
                (["$and": [["team": "b"], ["playerName": "Dan"]]], ["Dan"]),
                (["nickname": ["$exists": false], "team": "a"], ["Bob", "Sean"]),
                (["playedAt": ["$gte": ["__type": "Date", "iso": "2024-03-02 00:00:00"]]], ["Anna", "Sean", "Cleo", "Dan"]),
                (["location": ["$within": ["$box": [["__type": "GeoPoint", "latitude": 39.0, "longitude": 116.0], ["__type": "GeoPoint", "latitude": 40.0, "longitude": 117.0]]]]], ["Cleo", "Sean"]),
            ]
            for (condition, expected) in cases {
                let response = try await find(server, "\(whereParam(condition))&order=score")
                #expect(response.status == 200, "\(condition.jsonString): \(response.text)")
                #expect(Set(names(response)) == Set(expected), "\(condition.jsonString)")
            }
            let counted = try await find(server, "\(whereParam(["score": 900]))&count=1&limit=0")
            #expect(counted.json == ["results": [], "count": 2])
        }
    }

    @Test func pointersSubQueriesAndInclude() async throws {
        try await withTestServer { server in
            let ids = try await seed(server)
            let pointer: JSONValue = ["__type": "Pointer", "className": "Author", "objectId": .string(ids["ba"]!)]
            #expect(Set(names(try await find(server, whereParam(["author": pointer])))) == ["Anna", "Cleo"])
            let inQuery: JSONValue = ["author": ["$inQuery": ["where": ["name": "Lu Xun"], "className": "Author"]]]
            #expect(Set(names(try await find(server, whereParam(inQuery)))) == ["Sean", "Bob", "Dan"])
            let included = try await find(server, "\(whereParam(["playerName": "Anna"]))&include=author&keys=playerName,author")
            let row = try #require(included.json?["results"]?.arrayValue?.first)
            #expect(row["author"]?["name"] == "Ba Jin")
            #expect(row["score"] == nil)
            #expect(row["createdAt"]?.stringValue != nil)
        }
    }

    @Test func plainFindsPassStoredDocumentsThroughIntact() async throws {
        try await withTestServer(clock: .fixed(1_437_531_770_000)) { server in
            let empty = try await server.create("Doc", [:])
            let full = try await server.create("Doc", ["a": "quote \" and \\", "ACL": ["*": ["read": true]], "n": [1, 2]])
            let response = try await server.call("GET", "/1/classes/Doc?order=createdAt,objectId&count=1")
            #expect(response.status == 200)
            let results = try #require(response.json?["results"]?.arrayValue)
            #expect(response.json?["count"] == 2)
            let byId = Dictionary(uniqueKeysWithValues: results.compactMap { row in row["objectId"]?.stringValue.map { ($0, row) } })
            #expect(byId[empty] == ["objectId": .string(empty), "createdAt": "2015-07-22 02:22:50", "updatedAt": "2015-07-22 02:22:50"])
            #expect(byId[full] == [
                "objectId": .string(full), "createdAt": "2015-07-22 02:22:50", "updatedAt": "2015-07-22 02:22:50",
                "a": "quote \" and \\", "ACL": ["*": ["read": true]], "n": [1, 2],
            ])
            // The same objects through the value path (keys given) agree.
            let viaKeys = try await server.call("GET", "/1/classes/Doc?order=createdAt,objectId&keys=a,n,ACL")
            #expect(viaKeys.json?["results"]?.arrayValue?.count == 2)
        }
    }

    @Test func selectDontSelectAndNotInQuery() async throws {
        try await withTestServer { server in
            _ = try await seed(server)
            _ = try await server.create("Team", ["code": "a", "city": "Beijing"])
            _ = try await server.create("Team", ["code": "c", "city": "Shanghai"])
            let select: JSONValue = ["team": ["$select": ["query": ["className": "Team", "where": ["city": "Beijing"]], "key": "code"]]]
            #expect(Set(names(try await find(server, whereParam(select)))) == ["Sean", "Bob"])
            let dontSelect: JSONValue = ["team": ["$dontSelect": ["query": ["className": "Team", "where": [:]], "key": "code"]]]
            #expect(Set(names(try await find(server, whereParam(dontSelect)))) == ["Anna", "Dan"])
            let notIn: JSONValue = ["author": ["$notInQuery": ["where": ["name": "Lu Xun"], "className": "Author"]]]
            #expect(Set(names(try await find(server, whereParam(notIn)))) == ["Anna", "Cleo"])
        }
    }

    @Test func relationsAddRemoveAndRelatedTo() async throws {
        try await withTestServer { server in
            let ids = try await seed(server)
            let postId = try await server.create("Post", ["title": "t"])
            func pointer(_ name: String) -> JSONValue {
                ["__type": "Pointer", "className": "GameScore", "objectId": .string(ids[name]!)]
            }
            let added = try await server.call("PUT", "/1/classes/Post/\(postId)", json: ["likes": ["__op": "AddRelation", "objects": [pointer("Sean"), pointer("Anna"), pointer("Bob")]]])
            #expect(added.status == 200, "\(added.text)")
            _ = try await server.call("PUT", "/1/classes/Post/\(postId)", json: ["likes": ["__op": "RemoveRelation", "objects": [pointer("Bob")]]])
            let related: JSONValue = ["$relatedTo": ["object": ["__type": "Pointer", "className": "Post", "objectId": .string(postId)], "key": "likes"]]
            #expect(Set(names(try await find(server, whereParam(related)))) == ["Sean", "Anna"])
            let post = try await server.call("GET", "/1/classes/Post/\(postId)")
            #expect(post.json?["likes"] == ["__type": "Relation", "className": "GameScore"])
            let schema = try await server.call("GET", "/1/schemas/Post", master: true)
            #expect(schema.json?["fields"]?["likes"] == ["type": "Relation", "targetClass": "GameScore"])
        }
    }

    @Test func nearSphereOrdersByDistance() async throws {
        try await withTestServer { server in
            _ = try await seed(server)
            let near: JSONValue = ["location": ["$nearSphere": ["__type": "GeoPoint", "latitude": 39.9, "longitude": 116.4], "$maxDistanceInKilometers": 1800]]
            // Beijing, then Shanghai (~1070 km), Chengdu (~1520 km); Shenzhen (~1940 km) is out of range.
            #expect(names(try await find(server, whereParam(near))) == ["Sean", "Cleo", "Anna", "Dan"])
        }
    }

    @Test func aggregates() async throws {
        try await withTestServer { server in
            _ = try await seed(server)
            let total = try await find(server, "sum=score")
            #expect(total.json == ["results": [["_sumScore": 5737]]])
            let grouped = try await find(server, "sum=score&groupby=team&groupcount=true&order=-_sumscore")
            let rows = try #require(grouped.json?["results"]?.arrayValue)
            #expect(rows.map { $0["team"] } == ["c", "b", "a"])
            #expect(rows.map { $0["_count"] } == [1, 2, 2])
            // bmobpy sends `having` as a Python dict repr.
            let having = try await find(server, "sum=score&groupby=team&having=\(queryEncoded("{'_sumScore': {'$gt': 1500}}"))")
            #expect(Set(having.json?["results"]?.arrayValue?.compactMap { $0["team"]?.stringValue } ?? []) == ["b", "c"])
            let minmax = try await find(server, "max=score&min=score&average=score")
            let row = try #require(minmax.json?["results"]?.arrayValue?.first)
            #expect(row["_maxScore"] == 2500)
            #expect(row["_minScore"] == 100)
            #expect(row["_avgScore"]?.doubleValue == 5737.0 / 5)
        }
    }

    @Test func badQueriesAre102AndUnknownClassesAreEmpty() async throws {
        try await withTestServer { server in
            _ = try await seed(server)
            #expect(try await find(server, "where=%7Bnot-json").json?["code"] == 102)
            #expect(try await find(server, whereParam(["score": ["$frob": 1]])).json?["code"] == 102)
            #expect(try await find(server, "limit=-1").json?["code"] == 102)
            #expect(try await find(server, whereParam(["playerName": ["$regex": "(unclosed"]])).json?["code"] == 102)
            let empty = try await server.call("GET", "/1/classes/NoSuchClass?count=1")
            #expect(empty.json == ["results": [], "count": 0])
        }
    }

    @Test func bqlQueries() async throws {
        try await withTestServer { server in
            _ = try await seed(server)
            func bql(_ text: String, values: JSONValue? = nil) async throws -> RawHTTPResponse {
                var target = "/1/cloudQuery?bql=\(queryEncoded(text))"
                if let values { target += "&values=\(queryEncoded(values.jsonString))" }
                return try await server.call("GET", target)
            }
            #expect(names(try await bql("select * from GameScore where score > 1000 order by -score")) == ["Cleo", "Sean"])
            #expect(names(try await bql("select * from GameScore where team = ? and score >= ? order by playerName", values: ["b", 900])) == ["Anna", "Dan"])
            #expect(names(try await bql("select * from GameScore where playerName like 'B%'")) == ["Bob"])
            #expect(names(try await bql("select * from GameScore order by score, playerName limit 1, 2")) == ["Anna", "Dan"])
            let counted = try await bql("select count(*) from GameScore where team = 'a'")
            #expect(counted.json?["count"] == 2)
            let grouped = try await bql("select sum(score), team from GameScore group by team order by team")
            #expect(grouped.json?["results"]?.arrayValue?.map { $0["_sumScore"] } == [1437, 1800, 2500])
            let broken = try await bql("select * form GameScore")
            #expect(broken.status == 400)
            #expect(broken.json?["code"] == 601)
        }
    }
}
