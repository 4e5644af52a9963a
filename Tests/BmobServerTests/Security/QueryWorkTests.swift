import BmobServer
import BmobStore
import BmobTesting
import BmobWire
import Testing

/// Queries cannot take unbounded work: a `$regex` evaluation and a whole query have step budgets
/// (`maxRegexSteps`, `maxQueryWork`), and queries too large for SQLite are refused up front with clear codes
/// (102, 402 "where too large", 601 in BQL), through REST, BQL and the native `/8/` door. Nothing here answers
/// 500, and refused queries leave the readers to the others. Budgets are set small so that debug builds stay
/// quick; the defaults are checked against ordinary queries.
///
/// The step budgets are SQLite's: its readers run our ``BoundedRegex`` and SQLite's virtual machine in process.
/// On PostgreSQL (`BMOB_TEST_ENGINE=postgres`) `$regex` runs PostgreSQL's own automaton, which answers the probe
/// at once, and the query budget is a statement timeout (tested in `PostgresStoreTests`); there these tests check
/// that the same requests are answered correctly and quickly instead.
@Suite("Security: query work")
struct SecurityQueryWorkTests {
    /// About 1 MB of `b`s.
    static let megabyte = String(repeating: "b", count: 1 << 20)
    /// An app whose objects may hold the 1 MiB field (the default limit is 1 MiB for the whole object).
    static let roomy: AppSecurity = {
        var security = AppSecurity()
        security.maxObjectBytes = 4 << 20
        return security
    }()
    /// The security probe: a linear-time pattern that still costs 4,001 instructions per character.
    static let probe = "(.*a){1000}b"

    /// `GET /1/classes/<className>?<name>=<value>&…` with the values percent-encoded.
    private func find(_ server: TestServer, _ className: String, _ parameters: [(String, String)]) async throws
        -> RawHTTPResponse
    {
        let query = parameters.map { "\($0.0)=\(queryEncoded($0.1))" }.joined(separator: "&")
        return try await server.call("GET", "/1/classes/\(className)?\(query)")
    }

    /// `GET /1/cloudQuery?bql=…`.
    private func bql(_ server: TestServer, _ statement: String, values: JSONValue? = nil) async throws
        -> RawHTTPResponse
    {
        var target = "/1/cloudQuery?bql=\(queryEncoded(statement))"
        if let values { target += "&values=\(queryEncoded(values.jsonString))" }
        return try await server.call("GET", target)
    }

    private func whereText(_ json: JSONValue) -> String { json.jsonString }

    /// Seeds `objects` into the test app's store in one write, bypassing the API (fast; the store still holds
    /// them to the app's `maxObjectBytes`, see ``roomy``).
    private func seed(_ server: TestServer, _ objects: [StoredObject]) async throws {
        let runtime = try #require(await server.server.context.apps.runtime(id: TestServer.applicationId))
        try await runtime.store.write(caller: "test") { transaction in
            for object in objects { try transaction.insert(object) }
        }
    }

    private func object(_ className: String, _ objectId: String, _ fields: [String: JSONValue]) -> StoredObject {
        StoredObject(className: className, objectId: objectId, createdAt: 1, updatedAt: 1, fields: fields)
    }

    // MARK: - Work budgets

    @Test func theRegexProbeOnAMegabyteFieldIsRefusedWith102OnEveryDoor() async throws {
        try await withTestServer(security: Self.roomy, configure: { $0.maxRegexSteps = 1_000_000 }) { server in
            try await seed(server, [object("Doc", "big0000001", ["text": .string(Self.megabyte)]), object("Doc", "small00001", ["text": "ok"])])
            let rest = try await find(server, "Doc", [("where", whereText(["text": ["$regex": .string(Self.probe)]]))])
            if TestPostgres.isSelected {
                // No match, answered on every door without a step budget.
                #expect(rest.status == 200)
                #expect(rest.json?["results"]?.arrayValue?.isEmpty == true)
                let viaBQL = try await bql(server, "select * from Doc where text regexp '\(Self.probe)'")
                #expect(viaBQL.json?["results"]?.arrayValue?.isEmpty == true)
                let native = try await NativeTestClient(server).call(
                    "find", ["c": "Doc", "data": ["where": ["text": ["$regex": .string(Self.probe)]]]])
                #expect(native.code == 200)
                let fine = try await find(server, "Doc", [("where", whereText(["text": ["$regex": "^ok$"]]))])
                #expect(fine.json?["results"]?.arrayValue?.count == 1)
                return
            }
            #expect(rest.status == 400)
            #expect(rest.json?["code"] == 102)
            let message = try #require(rest.json?["error"]?.stringValue)
            #expect(message.hasPrefix("the query needs too much work: a $regex took more than 1000000 steps"))
            let viaBQL = try await bql(server, "select * from Doc where text regexp '\(Self.probe)'")
            #expect(viaBQL.json?["code"] == 102)
            #expect(viaBQL.json?["error"]?.stringValue == message)
            let native = try await NativeTestClient(server).call(
                "find", ["c": "Doc", "data": ["where": ["text": ["$regex": .string(Self.probe)]]]])
            #expect(native.code == 102)
            #expect(native.message == message)
            // Everything else still runs.
            let fine = try await find(server, "Doc", [("where", whereText(["text": ["$regex": "^ok$"]]))])
            #expect(fine.json?["results"]?.arrayValue?.count == 1)
        }
    }

    @Test func defaultBudgetsLeaveASimplePatternOnAMegabyteFieldAlone() async throws {
        try await withTestServer(security: Self.roomy) { server in
            try await seed(server, [object("Doc", "big0000001", ["text": .string(Self.megabyte + "needle")])])
            for pattern in ["needle$", "^b+needle", "NEEDLE"] {
                let response = try await find(
                    server, "Doc", [("where", whereText(["text": ["$regex": .string(pattern), "$options": "i"]])), ("keys", "objectId")])
                #expect(response.status == 200, "\(pattern): \(response.text.prefix(200))")
                #expect(response.json?["results"]?.arrayValue?.count == 1, "\(pattern)")
            }
        }
    }

    @Test func aQueryOverTheWorkBudgetIsRefusedWhileOthersRun() async throws {
        try await withTestServer(configure: { $0.maxQueryWork = 5_000 }) { server in
            try await seed(server, (0..<3000).map { object("Item", "item\($0)", ["n": .int(Int64($0))]) })
            let scan = [("where", whereText(["n": ["$gt": 2998]]))]
            if TestPostgres.isSelected {
                // The budget is a statement timeout there (its 1 ms floor here): the scan is answered, or refused
                // with 102 when it ran past it; never a 5xx.
                let answer = try await find(server, "Item", scan)
                if answer.status == 200 {
                    #expect(answer.json?["results"]?.arrayValue?.count == 1)
                } else {
                    #expect(answer.status == 400 && answer.json?["code"] == 102, "\(answer.text)")
                }
                return
            }
            let refused = try await find(server, "Item", scan)
            #expect(refused.status == 400)
            #expect(refused.json?["code"] == 102)
            #expect(refused.json?["error"]?.stringValue?.hasPrefix("the query needs too much work (more than 5000 steps)") == true)
            // Refused queries and cheap ones side by side: every one is answered, none with a 5xx.
            let statuses = try await withThrowingTaskGroup(of: (Bool, Int).self) { group in
                for index in 0..<8 {
                    group.addTask {
                        if index % 2 == 0 {
                            return (true, try await find(server, "Item", scan).status)
                        }
                        return (false, try await server.call("GET", "/1/classes/Item/item\(index)").status)
                    }
                }
                var all: [(Bool, Int)] = []
                for try await status in group { all.append(status) }
                return all
            }
            #expect(statuses.count == 8)
            #expect(statuses.allSatisfy { $0.0 ? $0.1 == 400 : $0.1 == 200 })
        }
    }

    @Test func theBudgetsAreServerSettings() throws {
        var configuration = ServerConfiguration()
        #expect(configuration.maxRegexSteps == SQLiteStore.WorkLimits.defaultRegexSteps)
        #expect(configuration.maxQueryWork == SQLiteStore.WorkLimits.defaultQueryWork)
        let regex = try #require(ServerConfiguration.settings.first { $0.key == "maxRegexSteps" })
        let work = try #require(ServerConfiguration.settings.first { $0.key == "maxQueryWork" })
        #expect(regex.environment == "BMOB_MAX_REGEX_STEPS" && regex.flag == "--max-regex-steps")
        #expect(work.environment == "BMOB_MAX_QUERY_WORK" && work.flag == "--max-query-work")
        try regex.apply(&configuration, "2000000")
        try work.apply(&configuration, "30000000")
        #expect(configuration.maxRegexSteps == 2_000_000 && configuration.maxQueryWork == 30_000_000)
        #expect(configuration != ServerConfiguration())
        for hostile in ["0", "-1", "999", "lots", "99999999999999999999999"] {
            #expect(throws: ConfigurationError.self) { try regex.apply(&configuration, hostile) }
            #expect(throws: ConfigurationError.self) { try work.apply(&configuration, hostile) }
        }
    }

    // MARK: - Sizes beyond SQLite's limits

    /// `a0,a1,…`.
    private func names(_ count: Int) -> String {
        (0..<count).map { "a\($0)" }.joined(separator: ",")
    }

    private func or(_ branches: Int) -> JSONValue {
        ["$or": .array((0..<branches).map { ["n": .int(Int64($0))] })]
    }

    @Test func theProbesSizesAreRefusedUpFrontOnEveryDoor() async throws {
        // The REST probes need long URLs: allow them, so that the query limits are what answers.
        try await withTestServer(configure: { $0.maxHeaderBytes = 1 << 22 }) { server in
            _ = try await server.create("Item", ["n": 1, "a0": 1])
            let native = NativeTestClient(server)
            let cases: [(String, String, Int)] = [
                ("groupby", names(2001), 102), ("sum", names(2001), 102), ("order", names(50_000), 102),
                ("keys", names(50_000), 102), ("where", whereText(or(994)), 402), ("where", whereText(or(5000)), 402),
                ("having", whereText(or(994)), 402),
            ]
            for (name, value, code) in cases {
                var parameters = [(name, value)]
                if name == "having" { parameters.append(("groupby", "n")) }
                let rest = try await find(server, "Item", parameters)
                #expect(rest.status == 400, "REST \(name): \(rest.status) \(rest.text.prefix(200))")
                #expect(rest.json?["code"]?.int64Value == Int64(code), "REST \(name)")
                var data: [String: JSONValue] = [name: name == "where" || name == "having" ? try JSONParser.parse(value) : .string(value)]
                if name == "having" { data["groupby"] = "n" }
                let answer = try await native.call("find", ["c": "Item", "data": .object(data)])
                #expect(answer.code == code, "native \(name): \(answer.message)")
            }
            // BQL statements stop at 4,096 bytes: the largest lists that fit are over the limits all the same.
            let letters = Array(repeating: "a", count: 2001).joined(separator: ",")
            for statement in [
                "select count(*) from Item group by \(letters)", "select sum(a) from Item order by \(letters)",
                "select * from Item where " + Array(repeating: "n=?", count: 550).joined(separator: " or "),
            ] {
                let values: JSONValue? = statement.contains("?") ? .array(Array(repeating: 1, count: 550)) : nil
                let response = try await bql(server, statement, values: values)
                #expect(response.status == 400, "\(statement.prefix(60)): \(response.text.prefix(200))")
                #expect(response.json?["code"] == 601)
            }
            // The same queries within the limits run.
            let fine = try await find(server, "Item", [("where", whereText(or(WhereParser.maximumConditions)))])
            #expect(fine.json?["results"]?.arrayValue?.count == 1)
            let grouped = try await find(server, "Item", [("groupby", names(FindQuery.maximumAggregateFields))])
            #expect(grouped.status == 200)
        }
    }
}
