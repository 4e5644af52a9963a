import BmobServer
import BmobTesting
import BmobWire
import Testing

/// Every combination of caller (anonymous, a bad token, three users with and without roles, the master key),
/// object ACL, class-level permissions and operation, checked against a small oracle written here from the
/// documented rules rather than from the server's code.
///
/// The oracle, in order:
///
/// 1. **The master key** may do everything.
/// 2. **Class-level permissions first.** Per operation (`get`, `find`, `create`, `update`, `delete`,
///    `addField`): no rule means open; a rule lets in a caller holding one of its grantees (`*` is everyone,
///    `requiresAuthentication` any signed-in user, a user id that user, `role:<Name>` the members of the role).
///    `find` governs queries, counts and aggregates; a write that adds a field needs `addField` as well.
///    A refusal is code 501 for the whole request, before any object is looked at — except `addField` on an
///    update, checked after the object's ACL (rule 3) so that it cannot tell a private object from a missing one.
/// 3. **Then the object's ACL.** No ACL means public read and write; otherwise the caller needs an entry
///    (`*`, its user id, or `role:<Name>` of one of its roles) granting the right. A refused get, update or
///    delete is code 101; objects the caller may not read are absent from find results, counts and sums.
/// 4. **Roles inherit.** A role's `roles` relation lists child roles; the members of a child are members of
///    the parent (transitively).
/// 5. **Include** expands a pointer only to an object the caller could get by its id (class `get`
///    permission and ACL `read`); otherwise the pointer stays a pointer and the holder is still answered.
/// 6. **A bad session token** is no session: the caller is anonymous.
/// 7. **Sub-queries run as if the caller ran them directly.** `$inQuery` and `$select` into a class need its
///    `find` permission, or the whole query fails with 501; inside, objects the caller may not read match
///    nothing. `$relatedTo` names its owner by id: it needs the owner class's `get` permission (501), and an
///    owner the caller may not read lists nothing.
@Suite("Permission matrix")
struct PermissionMatrixTests {
    // MARK: - Dimensions

    /// The users the fixture signs up.
    enum Person: String, CaseIterable, Sendable {
        case a = "A"
        case b = "B"
        case c = "C"
    }

    /// The roles the fixture creates.
    enum RoleName: String, CaseIterable, Sendable {
        case child = "Child"
        case parent = "Parent"
        case orphan = "Orphan"

        /// The users in the role's `users` relation.
        var users: [Person] {
            switch self {
            case .child: [.a]
            case .parent: [.b]
            case .orphan: []
            }
        }

        /// The roles in the role's `roles` relation: their members inherit this role.
        var children: [RoleName] {
            switch self {
            case .parent: [.child]
            case .child, .orphan: []
            }
        }
    }

    /// Whom an ACL entry or a class permission names.
    enum Grantee: Hashable, Sendable, CustomStringConvertible {
        /// `*`.
        case everyone
        /// `requiresAuthentication` (class permissions only).
        case signedIn
        /// A user id.
        case user(Person)
        /// `role:<Name>`.
        case role(RoleName)

        var description: String {
            switch self {
            case .everyone: "*"
            case .signedIn: "requiresAuthentication"
            case .user(let person): "user \(person.rawValue)"
            case .role(let role): "role:\(role.rawValue)"
            }
        }
    }

    /// An ACL right.
    enum Right: String, Hashable, Sendable {
        case read
        case write
    }

    /// Who sends the request.
    enum Caller: String, CaseIterable, Sendable {
        case anonymous
        case badToken
        case a
        case b
        case c
        case master

        /// The signed-in user, if any.
        var person: Person? {
            switch self {
            case .a: .a
            case .b: .b
            case .c: .c
            case .anonymous, .badToken, .master: nil
            }
        }
    }

    /// The ACLs of the objects, one object per shape in each class.
    enum ACLShape: Int, CaseIterable, Sendable, CustomStringConvertible {
        case none
        case empty
        case publicRead
        case publicReadWrite
        case aOnly
        case aReadBWrite
        case childReadWrite
        case parentRead
        case orphanReadWrite
        case publicWriteOnly

        /// The entries, or `nil` for an object without an ACL.
        var acl: [Grantee: Set<Right>]? {
            switch self {
            case .none: nil
            case .empty: [:]
            case .publicRead: [.everyone: [.read]]
            case .publicReadWrite: [.everyone: [.read, .write]]
            case .aOnly: [.user(.a): [.read, .write]]
            case .aReadBWrite: [.user(.a): [.read], .user(.b): [.write]]
            case .childReadWrite: [.role(.child): [.read, .write]]
            case .parentRead: [.role(.parent): [.read]]
            case .orphanReadWrite: [.role(.orphan): [.read, .write]]
            case .publicWriteOnly: [.everyone: [.write]]
            }
        }

        var description: String {
            switch self {
            case .none: "no ACL"
            case .empty: "ACL {}"
            case .publicRead: "ACL *:r"
            case .publicReadWrite: "ACL *:rw"
            case .aOnly: "ACL A:rw"
            case .aReadBWrite: "ACL A:r B:w"
            case .childReadWrite: "ACL role:Child:rw"
            case .parentRead: "ACL role:Parent:r"
            case .orphanReadWrite: "ACL role:Orphan:rw"
            case .publicWriteOnly: "ACL *:w"
            }
        }
    }

    /// A class-level permission.
    enum Permission: String, CaseIterable, Sendable {
        case get
        case find
        case create
        case update
        case delete
        case addField
    }

    /// The classes, one per set of class-level permissions.
    enum ClassVariant: String, CaseIterable, Sendable, CustomStringConvertible {
        case open
        case findNeedsSignIn
        case parentOnly
        case getOnly
        case createByC
        case noAddField

        var className: String {
            switch self {
            case .open: "PermOpen"
            case .findNeedsSignIn: "PermFindSignedIn"
            case .parentOnly: "PermParentOnly"
            case .getOnly: "PermGetOnly"
            case .createByC: "PermCreateByC"
            case .noAddField: "PermNoAddField"
            }
        }

        /// The rules; a permission that is absent is open, an empty set is closed.
        var permissions: [Permission: Set<Grantee>] {
            switch self {
            case .open: [:]
            case .findNeedsSignIn: [.find: [.signedIn]]
            case .parentOnly:
                [.get: [.role(.parent)], .find: [.role(.parent)], .update: [.role(.parent)], .delete: [.role(.parent)]]
            case .getOnly: [.get: [.everyone], .find: [], .create: [], .update: [], .delete: [], .addField: []]
            case .createByC: [.create: [.user(.c)]]
            case .noAddField: [.addField: []]
            }
        }

        var description: String {
            let rules = permissions.sorted { $0.key.rawValue < $1.key.rawValue }.map { operation, grantees in
                "\(operation.rawValue):{\(grantees.map(\.description).sorted().joined(separator: ","))}"
            }
            return "\(className)[\(rules.isEmpty ? "no class permissions" : rules.joined(separator: " "))]"
        }
    }

    /// What a cell does.
    enum Operation: String, CaseIterable, Sendable {
        /// `GET /1/classes/<C>/<id>`.
        case get
        /// Whether the object is among `GET /1/classes/<C>` results.
        case find
        /// `count=1&limit=0` for a `where` that matches just this object.
        case count
        /// Whether the object's `n` (a distinct power of two) is in `sum=n` over the class.
        case aggregate
        /// Whether `GET /1/classes/PermHolder/<id>?include=…` expands the pointer to the object.
        case includeByGet
        /// Whether `GET /1/classes/PermHolder?include=…` expands the pointer to the object.
        case includeByFind
        /// Whether the holder is found by `$inQuery` on its pointer to the object.
        case inQuery
        /// Whether the holder is found by `$select` of the object's `objectId`.
        case select
        /// Whether `$relatedTo` the object (its relation `members`) lists the one `PermTarget` it holds.
        case relatedTo
        /// `PUT` incrementing a known field.
        case update
        /// `PUT` setting a field the class does not have yet.
        case updateAddingField
        /// `POST` of an object with this ACL and known fields.
        case create
        /// `POST` of an object with this ACL and a field the class does not have yet.
        case createAddingField
        /// `DELETE` of a copy of the object.
        case delete

        static let reads: [Operation] = [
            .get, .find, .count, .aggregate, .includeByGet, .includeByFind, .inQuery, .select, .relatedTo,
        ]
        static let writes: [Operation] = [.update, .updateAddingField, .create, .createAddingField, .delete]
    }

    /// What a cell answers.
    enum Outcome: Equatable, Sendable, CustomStringConvertible {
        /// The operation succeeded, the object is in the results (counted, summed), the pointer was expanded.
        case allowed
        /// The object is absent from the results (not counted, not summed); the pointer stayed a pointer.
        case hidden
        /// A Bmob error code: 501 for class permissions, 101 for the ACL.
        case error(Int64)
        /// Anything else, with the status and body.
        case unexpected(String)

        var description: String {
            switch self {
            case .allowed: "allowed"
            case .hidden: "hidden"
            case .error(let code): "error \(code)"
            case .unexpected(let detail): "unexpected \(detail)"
            }
        }
    }

    /// One combination.
    struct Cell: CustomStringConvertible {
        var variant: ClassVariant
        var shape: ACLShape
        var caller: Caller
        var operation: Operation

        var description: String {
            "cell \(operation.rawValue) by \(caller.rawValue) on \(variant) object with \(shape)"
        }
    }

    // MARK: - Oracle

    /// The roles `person` belongs to: those whose `users` hold the person, then, until nothing changes, those
    /// whose `roles` hold a role already found.
    static func roles(of person: Person) -> Set<RoleName> {
        var found = Set(RoleName.allCases.filter { $0.users.contains(person) })
        var changed = true
        while changed {
            changed = false
            for role in RoleName.allCases where !found.contains(role) && role.children.contains(where: found.contains) {
                found.insert(role)
                changed = true
            }
        }
        return found
    }

    /// What the caller holds: everyone's `*`; for a signed-in user also "signed in", the user and its roles.
    /// The master key is handled before grantees matter.
    static func grantees(of caller: Caller) -> Set<Grantee> {
        var held: Set<Grantee> = [.everyone]
        guard let person = caller.person else { return held }  // anonymous, bad token
        held.insert(.signedIn)
        held.insert(.user(person))
        for role in roles(of: person) { held.insert(.role(role)) }
        return held
    }

    /// Rule 2: a missing permission is open; otherwise one grantee must match.
    static func classAllows(_ permission: Permission, _ variant: ClassVariant, _ caller: Caller) -> Bool {
        if caller == .master { return true }
        guard let rule = variant.permissions[permission] else { return true }
        return !rule.isDisjoint(with: grantees(of: caller))
    }

    /// Rule 3: no ACL is public; otherwise an entry the caller holds must grant `right`.
    static func aclAllows(_ right: Right, _ shape: ACLShape, _ caller: Caller) -> Bool {
        if caller == .master { return true }
        guard let acl = shape.acl else { return true }
        return grantees(of: caller).contains { acl[$0]?.contains(right) == true }
    }

    /// The answer a cell must get.
    static func expected(_ cell: Cell) -> Outcome {
        let (variant, shape, caller) = (cell.variant, cell.shape, cell.caller)
        func classes(_ permissions: Permission...) -> Bool {
            permissions.allSatisfy { classAllows($0, variant, caller) }
        }
        switch cell.operation {
        case .get:
            guard classes(.get) else { return .error(501) }
            return aclAllows(.read, shape, caller) ? .allowed : .error(101)
        case .find, .count, .aggregate:
            guard classes(.find) else { return .error(501) }
            return aclAllows(.read, shape, caller) ? .allowed : .hidden
        case .includeByGet, .includeByFind:
            // The holder's class is open; the target must be gettable.
            return classes(.get) && aclAllows(.read, shape, caller) ? .allowed : .hidden
        case .inQuery, .select:
            // The holder's class is open; the sub-query must be a find the caller may run.
            guard classes(.find) else { return .error(501) }
            return aclAllows(.read, shape, caller) ? .allowed : .hidden
        case .relatedTo:
            // The target's class is open; the owner is named by id, like a get.
            guard classes(.get) else { return .error(501) }
            return aclAllows(.read, shape, caller) ? .allowed : .hidden
        case .update, .delete:
            guard classes(cell.operation == .update ? .update : .delete) else { return .error(501) }
            return aclAllows(.write, shape, caller) ? .allowed : .error(101)
        case .updateAddingField:
            // The ACL comes before `addField`: a refusal that needs the object must not tell a private object
            // from a missing one.
            guard classes(.update) else { return .error(501) }
            guard aclAllows(.write, shape, caller) else { return .error(101) }
            return classes(.addField) ? .allowed : .error(501)
        case .create:
            return classes(.create) ? .allowed : .error(501)
        case .createAddingField:
            return classes(.create, .addField) ? .allowed : .error(501)
        }
    }

    /// Checks cells and counts them.
    struct Checker {
        private(set) var checked = 0

        mutating func check(_ cell: Cell, _ got: Outcome, sourceLocation: SourceLocation = #_sourceLocation) {
            checked += 1
            let want = PermissionMatrixTests.expected(cell)
            #expect(got == want, "\(cell): expected \(want), got \(got)", sourceLocation: sourceLocation)
        }
    }

    /// Every (class, ACL, caller) triple, in a fixed order.
    static var triples: [(ClassVariant, ACLShape, Caller)] {
        ClassVariant.allCases.flatMap { variant in
            ACLShape.allCases.flatMap { shape in Caller.allCases.map { (variant, shape, $0) } }
        }
    }

    // MARK: - Sanity of the oracle itself

    @Test("the oracle's role closure: A inherits Parent through Child, nobody is in Orphan")
    func oracleRoles() {
        #expect(Self.roles(of: .a) == [.child, .parent])
        #expect(Self.roles(of: .b) == [.parent])
        #expect(Self.roles(of: .c) == [])
        #expect(Self.grantees(of: .badToken) == [.everyone])
    }

    // MARK: - The matrix

    @Test("reads: get, find, count, aggregate, include and sub-queries, for every class, ACL and caller")
    func reads() async throws {
        try await withTestServer { server in
            let fixture = try await Fixture.build(server, copiesForDelete: false)
            var checker = Checker()
            for variant in ClassVariant.allCases {
                for caller in Caller.allCases {
                    let gets = try await fixture.getEach(variant, caller)
                    let found = try await fixture.find(variant, caller)
                    let counts = try await fixture.countEach(variant, caller)
                    let summed = try await fixture.sum(variant, caller)
                    let includedByGet = try await fixture.include(variant, caller, byFind: false)
                    let includedByFind = try await fixture.include(variant, caller, byFind: true)
                    let inQuery = try await fixture.subQuery(variant, caller, select: false)
                    let selected = try await fixture.subQuery(variant, caller, select: true)
                    let related = try await fixture.relatedTo(variant, caller)
                    for shape in ACLShape.allCases {
                        func cell(_ operation: Operation) -> Cell {
                            Cell(variant: variant, shape: shape, caller: caller, operation: operation)
                        }
                        checker.check(cell(.get), gets[shape] ?? .unexpected("not probed"))
                        checker.check(cell(.find), found[shape] ?? .unexpected("not probed"))
                        checker.check(cell(.count), counts[shape] ?? .unexpected("not probed"))
                        checker.check(cell(.aggregate), summed[shape] ?? .unexpected("not probed"))
                        checker.check(cell(.includeByGet), includedByGet[shape] ?? .unexpected("not probed"))
                        checker.check(cell(.includeByFind), includedByFind[shape] ?? .unexpected("not probed"))
                        checker.check(cell(.inQuery), inQuery[shape] ?? .unexpected("not probed"))
                        checker.check(cell(.select), selected[shape] ?? .unexpected("not probed"))
                        checker.check(cell(.relatedTo), related[shape] ?? .unexpected("not probed"))
                    }
                }
            }
            #expect(checker.checked == Self.triples.count * Operation.reads.count)
            #expect(checker.checked == 3240)
        }
    }

    @Test("writes: update, update adding a field, create, create adding a field and delete, for every cell")
    func writes() async throws {
        try await withTestServer { server in
            let fixture = try await Fixture.build(server, copiesForDelete: true)
            var checker = Checker()
            var expectedHits: [ClassVariant: [ACLShape: Int]] = [:]
            for (variant, shape, caller) in Self.triples {
                func cell(_ operation: Operation) -> Cell {
                    Cell(variant: variant, shape: shape, caller: caller, operation: operation)
                }
                let update = cell(.update)
                checker.check(update, try await fixture.update(update))
                if Self.expected(update) == .allowed { expectedHits[variant, default: [:]][shape, default: 0] += 1 }
                checker.check(cell(.updateAddingField), try await fixture.update(cell(.updateAddingField)))
                checker.check(cell(.create), try await fixture.create(cell(.create)))
                checker.check(cell(.createAddingField), try await fixture.create(cell(.createAddingField)))
                checker.check(cell(.delete), try await fixture.delete(cell(.delete)))
            }
            #expect(checker.checked == Self.triples.count * Operation.writes.count)
            #expect(checker.checked == 1800)

            // Refused writes changed nothing, allowed ones took effect: read back with the master key.
            for variant in ClassVariant.allCases {
                let state = try await fixture.masterState(variant)
                for shape in ACLShape.allCases {
                    let base = state.base[shape]
                    let hits = base?["hits"]?.int64Value
                    #expect(
                        hits == Int64(expectedHits[variant]?[shape] ?? 0),
                        "\(variant) object with \(shape): hits after the update cells")
                    for caller in Caller.allCases {
                        let added = Cell(variant: variant, shape: shape, caller: caller, operation: .updateAddingField)
                        #expect(
                            (base?[Fixture.addedField(added)] != nil) == (Self.expected(added) == .allowed),
                            "\(added): field present afterwards")
                        let deleted = Cell(variant: variant, shape: shape, caller: caller, operation: .delete)
                        let copy = fixture.copies[variant]?[shape]?[caller] ?? ""
                        #expect(
                            state.copies.contains(copy) == (Self.expected(deleted) != .allowed),
                            "\(deleted): copy still there afterwards")
                        for operation in [Operation.create, .createAddingField] {
                            let created = Cell(variant: variant, shape: shape, caller: caller, operation: operation)
                            #expect(
                                state.created.contains(Fixture.createdTag(created))
                                    == (Self.expected(created) == .allowed),
                                "\(created): object stored afterwards")
                        }
                    }
                }
            }
        }
    }
}
