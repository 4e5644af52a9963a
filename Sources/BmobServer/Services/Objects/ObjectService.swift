package import BmobStore
package import BmobWire

/// Creating, reading, updating and deleting objects: the behaviour behind REST `/1/classes`, the native
/// protocol's `create`/`update`/`delete`/`find` and batch. Front doors only decode and encode.
package struct ObjectService: Sendable {
    package let clock: ServerClock
    package let ids: ObjectIdGenerator
    /// Who the caller is: reads, updates and deletes of objects the caller may not access answer 101.
    package let callers: CallerResolver

    package init(clock: ServerClock, ids: ObjectIdGenerator = .ascending, callers: CallerResolver? = nil) {
        self.clock = clock
        self.ids = ids
        self.callers = callers ?? CallerResolver(clock: clock)
    }

    /// Classes that have their own endpoints and rules; `/1/classes` may read them but not write them.
    package static let managedClasses: Set<String> = ["_User", "_Role", "_Session", "_Installation", "_File"]

    /// Checks a class name from a path or body (103 otherwise).
    package static func validateClassName(_ className: String) throws(BmobAPIError) {
        guard BmobName.isValidClassName(className) else {
            throw BmobAPIError(.invalidClassName, "invalid class name: \(className)")
        }
    }

    /// Checks that `className` may be written through `/1/classes` (103 for a bad name or a class with its own endpoints).
    package static func validateWritable(_ className: String) throws(BmobAPIError) {
        try validateClassName(className)
        guard !managedClasses.contains(className) else {
            throw BmobAPIError(.invalidClassName, "class \(className) is managed through its own endpoints")
        }
    }

    /// Creates an object from a body of values and operators.
    ///
    /// - Returns: the stored object.
    /// - Throws: ``BmobAPIError`` (103, 105, 106, 107, 111, 117 …).
    package func create(className: String, body: [String: JSONValue], context: AppContext) async throws -> StoredObject {
        try Self.validateWritable(className)
        let scope = try await callers.caller(context).scope
        let now = clock.nowMilliseconds()
        let ids = self.ids
        let security = context.app.security
        return try await Self.mapStoreErrors {
            try await context.store.write(caller: context.journalAuthor, rerunnable: true) { transaction in
                try ClassPermissions.check(.create, className: className, scope: scope, transaction: transaction)
                return try Self.insert(
                    className: className, body: body, now: now, ids: ids, scope: scope, security: security,
                    transaction: transaction)
            }
        }
    }

    /// Creates an object inside a write the caller runs (the user service adds its own rows to the same
    /// transaction). No class rules are checked here, but the schema rules of ``SchemaGrowth`` are: `security`
    /// limits the object and the class (`nil`: no limits, for the server's own writes).
    ///
    /// `restoring` brings a deleted object back with its own id and creation time (history restore): the id is
    /// not replaced when taken, the insert fails instead.
    package static func insert(
        className: String, body: [String: JSONValue], now: Int64, ids: ObjectIdGenerator, scope: AccessScope = .master,
        security: AppSecurity? = nil, restoring: (objectId: String, createdAt: Int64)? = nil,
        transaction: any StoreWriteTransaction
    ) throws -> StoredObject {
        if let security { try SchemaGrowth.checkBody(body, security) }
        let knownSchema = try transaction.schema(className: className)
        let mutation = try ObjectMutation(body: body, fields: [:], knownSchema: knownSchema)
        try SchemaGrowth.check(
            mutation, knownSchema, className: className, scope: scope, security: security, transaction: transaction)
        try transaction.recordFields(className: className, fields: mutation.schema)
        var object = StoredObject(
            className: className, objectId: restoring?.objectId ?? ids.make(), createdAt: restoring?.createdAt ?? now,
            updatedAt: now, acl: mutation.acl ?? nil, fields: mutation.fields)
        // 40-bit ids collide rarely; a fresh one settles it. A restored object keeps its id or fails.
        var attempts = restoring == nil ? 0 : 5
        while true {
            do {
                try transaction.insert(object)
                break
            } catch let error as StoreError where error.code == .objectIdTaken && attempts < 5 {
                attempts += 1
                object.objectId = ids.make()
            }
        }
        try applyRelations(mutation, className: className, objectId: object.objectId, transaction: transaction)
        return object
    }

    /// Applies a body to an existing object.
    ///
    /// - Returns: the object after the update.
    /// - Throws: ``BmobAPIError`` 101 when it does not exist, and the create errors.
    package func update(className: String, objectId: String, body: [String: JSONValue], context: AppContext) async throws -> StoredObject {
        try Self.validateWritable(className)
        let scope = try await callers.caller(context).scope
        let now = clock.nowMilliseconds()
        let security = context.app.security
        return try await Self.mapStoreErrors {
            try await context.store.write(caller: context.journalAuthor, rerunnable: true) { transaction in
                try ClassPermissions.check(.update, className: className, scope: scope, transaction: transaction)
                return try Self.update(
                    className: className, objectId: objectId, body: body, now: now, scope: scope, security: security,
                    transaction: transaction)
            }
        }
    }

    /// Applies a body to an existing object inside a write the caller runs. No class rules are checked here;
    /// `security` limits the object and the class as for ``insert(className:body:now:ids:scope:security:transaction:)``.
    ///
    /// With `expected`, the update is made only if the object is still that version (409 otherwise): a history
    /// revert computed before a `beforeSave` trigger ran checks it in the same transaction as its write.
    package static func update(
        className: String, objectId: String, body: [String: JSONValue], now: Int64, scope: AccessScope = .master,
        security: AppSecurity? = nil, expected: StoredObject? = nil, transaction: any StoreWriteTransaction
    ) throws -> StoredObject {
        if let security { try SchemaGrowth.checkBody(body, security) }
        // The object's ACL first (101, as for a missing object): a refusal that depends on the object, such as
        // `addField`, must not tell a private object from a missing one.
        guard var object = try transaction.fetch(className: className, objectId: objectId), scope.canWrite(object.acl)
        else {
            throw BmobAPIError.objectNotFound(objectId)
        }
        if let expected, object != expected {
            throw BmobAPIError(.changedSinceRead, "object \(objectId) changed since the version this change was made from")
        }
        let knownSchema = try transaction.schema(className: className)
        let mutation = try ObjectMutation(body: body, fields: object.fields, knownSchema: knownSchema)
        try SchemaGrowth.check(
            mutation, knownSchema, className: className, scope: scope, security: security, transaction: transaction)
        try transaction.recordFields(className: className, fields: mutation.schema)
        object.fields = mutation.fields
        if let acl = mutation.acl { object.acl = acl }
        object.updatedAt = max(now, object.updatedAt)
        try transaction.update(object)
        try applyRelations(mutation, className: className, objectId: objectId, transaction: transaction)
        return object
    }

    /// Deletes an object.
    ///
    /// - Throws: ``BmobAPIError`` 101 when it does not exist.
    package func delete(className: String, objectId: String, context: AppContext) async throws {
        try Self.validateWritable(className)
        let scope = try await callers.caller(context).scope
        try await Self.mapStoreErrors {
            try await context.store.write(caller: context.journalAuthor, rerunnable: true) { transaction in
                try ClassPermissions.check(.delete, className: className, scope: scope, transaction: transaction)
                try Self.checkWritable(className: className, objectId: objectId, scope: scope, transaction: transaction)
                try transaction.delete(className: className, objectId: objectId)
            }
        }
    }

    /// One object as clients see it, with `include` pointers expanded.
    ///
    /// - Throws: ``BmobAPIError`` 101 when it does not exist.
    package func get(className: String, objectId: String, include: [String], keys: [String]?, context: AppContext) async throws -> JSONValue {
        try Self.validateClassName(className)
        let scope = try await callers.caller(context).scope
        let renderer = context.renderer(for: scope)
        return try await Self.mapStoreErrors {
            try await context.store.read { transaction in
                try ClassPermissions.check(.get, className: className, scope: scope, transaction: transaction)
                guard let object = try transaction.fetch(className: className, objectId: objectId),
                    scope.canRead(object.acl)
                else {
                    throw BmobAPIError.objectNotFound(objectId)
                }
                var rendered = renderer.render(object, keys: keys.map { Set($0.map(Self.topLevel)) })
                try Self.expand(&rendered, include: include, scope: scope, renderer: renderer, transaction: transaction)
                return .object(rendered)
            }
        }
    }

    /// One object as clients see it, as JSON text spliced from the stored fields without parsing them: for a get
    /// without `include` or `keys`, dates in UTC, and no user to redact (``get(className:objectId:include:keys:context:)``
    /// answers the others). The fields come first, then the system fields, as in a find's results.
    ///
    /// - Returns: `nil` when the get needs ``get(className:objectId:include:keys:context:)``.
    /// - Throws: ``BmobAPIError`` 101 when it does not exist.
    package func storedJSON(
        className: String, objectId: String, include: [String], keys: [String]?, context: AppContext
    ) async throws -> [UInt8]? {
        guard include.isEmpty, keys == nil, context.app.dateOffsetSeconds == 0 else { return nil }
        try Self.validateClassName(className)
        let scope = try await callers.caller(context).scope
        guard className != UserService.className || scope == .master else { return nil }
        let renderer = ObjectRenderer()
        return try await Self.mapStoreErrors {
            try await context.store.read { transaction in
                try ClassPermissions.check(.get, className: className, scope: scope, transaction: transaction)
                guard let document = try transaction.fetchDocument(className: className, objectId: objectId),
                    scope.canRead(aclJSON: document.acl)
                else {
                    throw BmobAPIError.objectNotFound(objectId)
                }
                // Data the parser could not read back fails as it did when gets parsed it (a 500).
                guard ObjectRenderer.nestingIsReadable(document.data) else {
                    throw StoreError(.corrupt, "stored JSON is invalid")
                }
                var output: [UInt8] = []
                output.reserveCapacity(document.data.count + (document.acl?.count ?? 0) + 96)
                renderer.appendJSON(document, to: &output)
                return output
            }
        }
    }

    private static func topLevel(_ key: String) -> String {
        key.split(separator: ".", maxSplits: 1).first.map(String.init) ?? key
    }

    /// Replaces pointer fields named by `include` paths (`post`, `post.author`) with their objects,
    /// `{"__type":"Object","className":…, …fields}`. A segment may select the fields of its object:
    /// `post[title|likes].author[username]`. Missing targets stay pointers, and so do targets the caller may not
    /// read: their ACL, or their class's `get` permission (include fetches by id), says no.
    package static func expand(
        _ object: inout [String: JSONValue],
        include: [String],
        scope: AccessScope,
        renderer: ObjectRenderer,
        transaction: any StoreReadTransaction
    ) throws {
        for path in include where !path.isEmpty {
            try expand(
                &object, segments: IncludeSegment.parse(path)[...], scope: scope, renderer: renderer,
                transaction: transaction, depth: 0)
        }
    }

    private static func expand(
        _ object: inout [String: JSONValue],
        segments: ArraySlice<IncludeSegment>,
        scope: AccessScope,
        renderer: ObjectRenderer,
        transaction: any StoreReadTransaction,
        depth: Int
    ) throws {
        guard let segment = segments.first, depth < 8, let value = object[segment.field] else { return }
        var keys = segment.keys.map(Set.init)
        if let next = segments.dropFirst().first { keys?.insert(next.field) }
        var target: [String: JSONValue]
        if let pointer = PointerValue(json: value) {
            guard BmobName.isValidClassName(pointer.className),
                let stored = try transaction.fetch(className: pointer.className, objectId: pointer.objectId),
                scope.canRead(stored.acl),
                (try? ClassPermissions.check(.get, className: pointer.className, scope: scope, transaction: transaction)) != nil
            else { return }
            target = renderer.render(stored, keys: keys)
            target["__type"] = "Object"
            target["className"] = .string(pointer.className)
        } else if case .object(let members) = value, members["__type"]?.stringValue == "Object" {
            target = members  // expanded by an earlier path with the same prefix
        } else {
            return
        }
        try expand(
            &target, segments: segments.dropFirst(), scope: scope, renderer: renderer, transaction: transaction,
            depth: depth + 1)
        object[segment.field] = .object(target)
    }

    /// 101 when the object does not exist or its ACL does not let `scope` write it (the same answer, so that
    /// an ACL does not reveal that the object exists).
    package static func checkWritable(
        className: String, objectId: String, scope: AccessScope, transaction: any StoreWriteTransaction
    ) throws {
        guard let object = try transaction.fetch(className: className, objectId: objectId), scope.canWrite(object.acl) else {
            throw BmobAPIError.objectNotFound(objectId)
        }
    }

    private static func applyRelations(_ mutation: ObjectMutation, className: String, objectId: String, transaction: any StoreWriteTransaction) throws {
        for (key, targets) in mutation.relationsAdded.sorted(by: { $0.key < $1.key }) {
            try transaction.addRelation(className: className, objectId: objectId, key: key, targets: targets)
        }
        for (key, targets) in mutation.relationsRemoved.sorted(by: { $0.key < $1.key }) {
            try transaction.removeRelation(className: className, objectId: objectId, key: key, targets: targets)
        }
    }

    /// Store errors become Bmob errors with their codes; anything else passes through.
    package static func mapStoreErrors<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as StoreError {
            throw BmobAPIError(store: error)
        }
    }
}
