import BmobServer
import BmobTesting
import BmobWire

extension PermissionMatrixTests {
    /// The data behind the matrix, built over REST: three users, the roles, one class per ``ClassVariant``
    /// holding one object per ``ACLShape`` (plus, for the write test, one disposable copy per caller to
    /// delete), a holder in the open class `PermHolder` pointing at each object, one `PermTarget` object in
    /// every base object's relation `members`, and the class permissions, set last with the master key. Probes send one cell's request and turn the answer into an ``Outcome``.
    struct Fixture {
        static let holderClass = "PermHolder"
        static let targetClass = "PermTarget"
        static let badToken = "permbadtoken00000000000000000000"

        let server: TestServer
        var userIds: [Person: String] = [:]
        var tokens: [Person: String] = [:]
        /// The object of each shape in each class.
        var objects: [ClassVariant: [ACLShape: String]] = [:]
        /// The holder of each class's objects.
        var holders: [ClassVariant: String] = [:]
        /// Copies to delete, per class, shape and caller (write test only).
        var copies: [ClassVariant: [ACLShape: [Caller: String]]] = [:]
        /// The `PermTarget` object each base object's relation `members` holds.
        var target = ""

        static func build(_ server: TestServer, copiesForDelete: Bool) async throws -> Fixture {
            var fixture = Fixture(server: server)
            for person in Person.allCases {
                let response = try await server.call(
                    "POST", "/1/users", json: ["username": .string("perm\(person.rawValue)"), "password": "pw"])
                guard let id = response.json?["objectId"]?.stringValue,
                    let token = response.json?["sessionToken"]?.stringValue
                else { throw TestFailure("sign-up of \(person): \(response.status) \(response.text)") }
                fixture.userIds[person] = id
                fixture.tokens[person] = token
            }
            try await fixture.createRoles()
            fixture.target = try await fixture.createWithMaster(Self.targetClass, [["kind": "target"]])[0]
            let members: JSONValue = [
                "__op": "AddRelation",
                "objects": [["__type": "Pointer", "className": .string(Self.targetClass), "objectId": .string(fixture.target)]],
            ]
            for variant in ClassVariant.allCases {
                let bases = try await fixture.createWithMaster(
                    variant.className,
                    ACLShape.allCases.map { shape in
                        var body = fixture.body(shape, kind: "base", n: 1 << shape.rawValue).objectValue ?? [:]
                        body["members"] = members
                        return .object(body)
                    })
                fixture.objects[variant] = Dictionary(uniqueKeysWithValues: zip(ACLShape.allCases, bases))
                if copiesForDelete {
                    let pairs = ACLShape.allCases.flatMap { shape in Caller.allCases.map { (shape, $0) } }
                    let ids = try await fixture.createWithMaster(
                        variant.className, pairs.map { fixture.body($0.0, kind: "copy", n: 0) })
                    for ((shape, caller), id) in zip(pairs, ids) {
                        fixture.copies[variant, default: [:]][shape, default: [:]][caller] = id
                    }
                }
                var holder: [String: JSONValue] = ["variant": .string(variant.rawValue)]
                for (shape, id) in fixture.objects[variant] ?? [:] {
                    holder[Self.pointerField(variant, shape)] = [
                        "__type": "Pointer", "className": .string(variant.className), "objectId": .string(id),
                    ]
                }
                fixture.holders[variant] = try await fixture.createWithMaster(Self.holderClass, [.object(holder)])[0]
            }
            for variant in ClassVariant.allCases where !variant.permissions.isEmpty {
                let response = try await server.call(
                    "PUT", "/1/schemas/\(variant.className)",
                    json: ["classLevelPermissions": fixture.permissionsJSON(variant)], master: true)
                guard response.status == 200 else {
                    throw TestFailure("permissions of \(variant): \(response.status) \(response.text)")
                }
            }
            return fixture
        }

        /// Creates the roles with the master key, children before the roles that list them.
        private mutating func createRoles() async throws {
            var roleIds: [RoleName: String] = [:]
            while roleIds.count < RoleName.allCases.count {
                for role in RoleName.allCases
                where roleIds[role] == nil && role.children.allSatisfy({ roleIds[$0] != nil }) {
                    var body: [String: JSONValue] = ["name": .string(role.rawValue)]
                    if !role.users.isEmpty {
                        body["users"] = Self.addRelation(role.users.map { ("_User", userIds[$0] ?? "") })
                    }
                    if !role.children.isEmpty {
                        body["roles"] = Self.addRelation(role.children.map { ("_Role", roleIds[$0] ?? "") })
                    }
                    let response = try await server.call("POST", "/1/roles", json: .object(body), master: true)
                    guard response.status == 201, let id = response.json?["objectId"]?.stringValue else {
                        throw TestFailure("role \(role): \(response.status) \(response.text)")
                    }
                    roleIds[role] = id
                }
            }
        }

        private static func addRelation(_ targets: [(String, String)]) -> JSONValue {
            let pointers = targets.map { className, id -> JSONValue in
                ["__type": "Pointer", "className": .string(className), "objectId": .string(id)]
            }
            return ["__op": "AddRelation", "objects": .array(pointers)]
        }

        /// Creates objects through `/1/batch` with the master key, 50 a request; answers their ids in order.
        private func createWithMaster(_ className: String, _ bodies: [JSONValue]) async throws -> [String] {
            var ids: [String] = []
            for start in stride(from: 0, to: bodies.count, by: 50) {
                let requests = bodies[start..<min(start + 50, bodies.count)].map { body -> JSONValue in
                    ["method": "POST", "path": .string("/1/classes/\(className)"), "body": body]
                }
                let response = try await server.call(
                    "POST", "/1/batch", json: ["requests": .array(requests)], master: true)
                let items = response.json?.arrayValue ?? []
                for item in items {
                    guard let id = item["success"]?["objectId"]?.stringValue else {
                        throw TestFailure("batch create in \(className): \(response.text)")
                    }
                    ids.append(id)
                }
                guard items.count == requests.count else {
                    throw TestFailure("batch create in \(className): \(response.status) \(response.text)")
                }
            }
            return ids
        }

        // MARK: JSON

        /// The field names every object of the matrix classes has, so that only the cells meant to add a field
        /// do: `shape`, `n` (a power of two for the base objects), `hits` (the update counter), `kind` (`base`,
        /// `copy`, `new`) and `tag` (names the cell that created a `new` object).
        func body(_ shape: ACLShape, kind: String, n: Int, tag: String = "") -> JSONValue {
            var body: [String: JSONValue] = [
                "shape": .int(Int64(shape.rawValue)), "n": .int(Int64(n)), "hits": 0, "kind": .string(kind),
                "tag": .string(tag),
            ]
            if let acl = aclJSON(shape) { body["ACL"] = acl }
            return .object(body)
        }

        func key(_ grantee: Grantee) -> String {
            switch grantee {
            case .everyone: "*"
            case .signedIn: "requiresAuthentication"
            case .user(let person): userIds[person] ?? "?"
            case .role(let role): "role:\(role.rawValue)"
            }
        }

        func aclJSON(_ shape: ACLShape) -> JSONValue? {
            guard let acl = shape.acl else { return nil }
            var entries: [String: JSONValue] = [:]
            for (grantee, rights) in acl {
                entries[key(grantee)] = .object(
                    Dictionary(uniqueKeysWithValues: rights.map { ($0.rawValue, JSONValue.bool(true)) }))
            }
            return .object(entries)
        }

        func permissionsJSON(_ variant: ClassVariant) -> JSONValue {
            var rules: [String: JSONValue] = [:]
            for (permission, grantees) in variant.permissions {
                rules[permission.rawValue] = .object(
                    Dictionary(uniqueKeysWithValues: grantees.map { (key($0), JSONValue.bool(true)) }))
            }
            return .object(rules)
        }

        /// A holder's pointer to the object of `shape` in `variant`'s class (pointer fields are typed by class).
        static func pointerField(_ variant: ClassVariant, _ shape: ACLShape) -> String {
            "\(variant.rawValue)_\(shape.rawValue)"
        }

        /// The new field an `updateAddingField` cell sets: one per cell, so that each is new to its class.
        static func addedField(_ cell: Cell) -> String { "u_\(cell.caller.rawValue)_\(cell.shape.rawValue)" }

        /// The new field a `createAddingField` cell sends.
        static func createdField(_ cell: Cell) -> String { "c_\(cell.caller.rawValue)_\(cell.shape.rawValue)" }

        /// The `tag` of the object a create cell stores.
        static func createdTag(_ cell: Cell) -> String {
            "\(cell.operation.rawValue)-\(cell.caller.rawValue)-\(cell.shape.rawValue)"
        }

        // MARK: Requests

        func call(
            _ caller: Caller, _ method: String, _ target: String, json: JSONValue? = nil
        ) async throws -> RawHTTPResponse {
            switch caller {
            case .master:
                return try await server.call(method, target, json: json, master: true)
            case .anonymous:
                return try await server.call(method, target, json: json)
            case .badToken:
                return try await server.call(
                    method, target, json: json, headers: [("X-Bmob-Session-Token", Self.badToken)])
            case .a, .b, .c:
                let token = caller.person.flatMap { tokens[$0] } ?? ""
                return try await server.call(method, target, json: json, headers: [("X-Bmob-Session-Token", token)])
            }
        }

        /// `allowed` for the success status, the Bmob code of an error, anything else `unexpected`.
        static func outcome(_ response: RawHTTPResponse, success: Int) -> Outcome {
            if response.status == success { return .allowed }
            if response.status >= 400, let code = response.json?["code"]?.int64Value { return .error(code) }
            return .unexpected("\(response.status) \(response.text)")
        }

        /// A failed query's outcome for every shape.
        private static func failed(_ response: RawHTTPResponse) -> [ACLShape: Outcome] {
            let outcome = outcome(response, success: -1)
            return Dictionary(uniqueKeysWithValues: ACLShape.allCases.map { ($0, outcome) })
        }

        private static func query(_ parameters: [(String, String)]) -> String {
            parameters.map { "\($0.0)=\(queryEncoded($0.1))" }.joined(separator: "&")
        }

        private static func baseWhere(_ extra: [String: JSONValue] = [:]) -> String {
            JSONValue.object(extra.merging(["kind": "base"]) { current, _ in current }).jsonString
        }

        // MARK: Read probes

        /// `GET /1/classes/<C>/<id>` of each object.
        func getEach(_ variant: ClassVariant, _ caller: Caller) async throws -> [ACLShape: Outcome] {
            var outcomes: [ACLShape: Outcome] = [:]
            for shape in ACLShape.allCases {
                let id = objects[variant]?[shape] ?? ""
                let response = try await call(caller, "GET", "/1/classes/\(variant.className)/\(id)")
                var outcome = Self.outcome(response, success: 200)
                if outcome == .allowed, response.json?["objectId"]?.stringValue != id {
                    outcome = .unexpected("200 with another body: \(response.text)")
                }
                outcomes[shape] = outcome
            }
            return outcomes
        }

        /// Which objects one `GET /1/classes/<C>` answers.
        func find(_ variant: ClassVariant, _ caller: Caller) async throws -> [ACLShape: Outcome] {
            let response = try await call(
                caller, "GET",
                "/1/classes/\(variant.className)?" + Self.query([("where", Self.baseWhere()), ("limit", "1000")]))
            guard response.status == 200, let results = response.json?["results"]?.arrayValue else {
                return Self.failed(response)
            }
            let ids = Set(results.compactMap { $0["objectId"]?.stringValue })
            return Dictionary(
                uniqueKeysWithValues: ACLShape.allCases.map { shape in
                    (shape, ids.contains(objects[variant]?[shape] ?? "") ? Outcome.allowed : .hidden)
                })
        }

        /// `count=1&limit=0` for each object alone.
        func countEach(_ variant: ClassVariant, _ caller: Caller) async throws -> [ACLShape: Outcome] {
            var outcomes: [ACLShape: Outcome] = [:]
            for shape in ACLShape.allCases {
                let filter = Self.baseWhere(["shape": .int(Int64(shape.rawValue))])
                let response = try await call(
                    caller, "GET",
                    "/1/classes/\(variant.className)?"
                        + Self.query([("where", filter), ("count", "1"), ("limit", "0")]))
                guard response.status == 200 else {
                    outcomes[shape] = Self.outcome(response, success: -1)
                    continue
                }
                outcomes[shape] =
                    switch response.json?["count"]?.int64Value {
                    case 1: .allowed
                    case 0: .hidden
                    default: .unexpected("count: \(response.text)")
                    }
            }
            return outcomes
        }

        /// `sum=n` over the base objects: each `n` is a distinct power of two, so the bits say which rows
        /// were summed. No rows may sum to `null`, an absent column or no row, all meaning 0.
        func sum(_ variant: ClassVariant, _ caller: Caller) async throws -> [ACLShape: Outcome] {
            let response = try await call(
                caller, "GET",
                "/1/classes/\(variant.className)?" + Self.query([("where", Self.baseWhere()), ("sum", "n")]))
            guard response.status == 200, let rows = response.json?["results"]?.arrayValue else {
                return Self.failed(response)
            }
            let value = rows.first?["_sumN"]
            guard value == nil || value?.isNull == true || value?.int64Value != nil else {
                return Dictionary(
                    uniqueKeysWithValues: ACLShape.allCases.map { ($0, Outcome.unexpected("sum: \(response.text)")) })
            }
            let total = value?.int64Value ?? 0
            return Dictionary(
                uniqueKeysWithValues: ACLShape.allCases.map { shape in
                    (shape, total & (1 << Int64(shape.rawValue)) != 0 ? Outcome.allowed : .hidden)
                })
        }

        /// Which pointers of the class's holder come back expanded, through a get or a find of the holder.
        func include(_ variant: ClassVariant, _ caller: Caller, byFind: Bool) async throws -> [ACLShape: Outcome] {
            let include = ACLShape.allCases.map { Self.pointerField(variant, $0) }.joined(separator: ",")
            let holderId = holders[variant] ?? ""
            let target =
                byFind
                ? "/1/classes/\(Self.holderClass)?"
                    + Self.query([
                        ("where", JSONValue.object(["variant": .string(variant.rawValue)]).jsonString),
                        ("include", include),
                    ])
                : "/1/classes/\(Self.holderClass)/\(holderId)?" + Self.query([("include", include)])
            let response = try await call(caller, "GET", target)
            let holder = byFind ? response.json?["results"]?.arrayValue?.first : response.json
            guard response.status == 200, let holder, holder["objectId"]?.stringValue == holderId else {
                return Dictionary(
                    uniqueKeysWithValues: ACLShape.allCases.map {
                        ($0, Outcome.unexpected("holder: \(response.status) \(response.text)"))
                    })
            }
            var outcomes: [ACLShape: Outcome] = [:]
            for shape in ACLShape.allCases {
                let value = holder[Self.pointerField(variant, shape)]
                let id = objects[variant]?[shape]
                outcomes[shape] =
                    switch value?["__type"]?.stringValue {
                    case "Object" where value?["objectId"]?.stringValue == id && value?["kind"] == "base": .allowed
                    case "Pointer" where value?["objectId"]?.stringValue == id: .hidden
                    default: .unexpected("pointer field: \(value?.jsonString ?? "missing")")
                    }
            }
            return outcomes
        }

        /// Which holders `$inQuery` (or `$select` of `objectId`) finds through its pointer to each object.
        func subQuery(_ variant: ClassVariant, _ caller: Caller, select: Bool) async throws -> [ACLShape: Outcome] {
            var outcomes: [ACLShape: Outcome] = [:]
            let inner: JSONValue = ["className": .string(variant.className), "where": ["kind": "base"]]
            for shape in ACLShape.allCases {
                let constraint: JSONValue =
                    select ? ["$select": ["query": inner, "key": "objectId"]] : ["$inQuery": inner]
                let filter: JSONValue = [
                    "variant": .string(variant.rawValue), Self.pointerField(variant, shape): constraint,
                ]
                let response = try await call(
                    caller, "GET", "/1/classes/\(Self.holderClass)?" + Self.query([("where", filter.jsonString)]))
                guard response.status == 200, let results = response.json?["results"]?.arrayValue else {
                    outcomes[shape] = Self.outcome(response, success: -1)
                    continue
                }
                outcomes[shape] =
                    switch results.compactMap({ $0["objectId"]?.stringValue }) {
                    case [holders[variant] ?? ""]: .allowed
                    case []: .hidden
                    default: .unexpected("holders: \(response.text)")
                    }
            }
            return outcomes
        }

        /// Whether `$relatedTo` each object's `members` lists the target.
        func relatedTo(_ variant: ClassVariant, _ caller: Caller) async throws -> [ACLShape: Outcome] {
            var outcomes: [ACLShape: Outcome] = [:]
            for shape in ACLShape.allCases {
                let owner: JSONValue = [
                    "__type": "Pointer", "className": .string(variant.className),
                    "objectId": .string(objects[variant]?[shape] ?? ""),
                ]
                let filter: JSONValue = ["$relatedTo": ["object": owner, "key": "members"]]
                let response = try await call(
                    caller, "GET", "/1/classes/\(Self.targetClass)?" + Self.query([("where", filter.jsonString)]))
                guard response.status == 200, let results = response.json?["results"]?.arrayValue else {
                    outcomes[shape] = Self.outcome(response, success: -1)
                    continue
                }
                outcomes[shape] =
                    switch results.compactMap({ $0["objectId"]?.stringValue }) {
                    case [target]: .allowed
                    case []: .hidden
                    default: .unexpected("targets: \(response.text)")
                    }
            }
            return outcomes
        }

        // MARK: Write probes

        /// `PUT` of the cell's object: an increment of `hits`, or a new field.
        func update(_ cell: Cell) async throws -> Outcome {
            let id = objects[cell.variant]?[cell.shape] ?? ""
            let body: JSONValue =
                cell.operation == .updateAddingField
                ? .object([Self.addedField(cell): 1]) : ["hits": ["__op": "Increment", "amount": 1]]
            let response = try await call(cell.caller, "PUT", "/1/classes/\(cell.variant.className)/\(id)", json: body)
            return Self.outcome(response, success: 200)
        }

        /// `POST` of a new object with the cell's ACL, tagged with the cell, maybe with a new field.
        func create(_ cell: Cell) async throws -> Outcome {
            var body = body(cell.shape, kind: "new", n: 0, tag: Self.createdTag(cell)).objectValue ?? [:]
            if cell.operation == .createAddingField { body[Self.createdField(cell)] = 1 }
            let response = try await call(
                cell.caller, "POST", "/1/classes/\(cell.variant.className)", json: .object(body))
            return Self.outcome(response, success: 201)
        }

        /// `DELETE` of the cell's own copy of the object.
        func delete(_ cell: Cell) async throws -> Outcome {
            let id = copies[cell.variant]?[cell.shape]?[cell.caller] ?? ""
            let response = try await call(cell.caller, "DELETE", "/1/classes/\(cell.variant.className)/\(id)")
            return Self.outcome(response, success: 200)
        }

        /// A class as the master key sees it after the writes.
        struct State {
            /// The base object of each shape, as stored.
            var base: [ACLShape: JSONValue] = [:]
            /// The ids of the copies still there.
            var copies: Set<String> = []
            /// The tags of the objects the create cells stored.
            var created: Set<String> = []
        }

        func masterState(_ variant: ClassVariant) async throws -> State {
            let response = try await call(.master, "GET", "/1/classes/\(variant.className)?limit=1000")
            guard response.status == 200, let results = response.json?["results"]?.arrayValue else {
                throw TestFailure("master find of \(variant): \(response.status) \(response.text)")
            }
            var state = State()
            for object in results {
                switch object["kind"]?.stringValue {
                case "base":
                    if let raw = object["shape"]?.int64Value, let shape = ACLShape(rawValue: Int(raw)) {
                        state.base[shape] = object
                    }
                case "copy":
                    if let id = object["objectId"]?.stringValue { state.copies.insert(id) }
                default:
                    if let tag = object["tag"]?.stringValue { state.created.insert(tag) }
                }
            }
            return state
        }
    }
}
