import BmobStore
package import BmobWire

/// Per-object change history read from the journal every write already appends: an object's changes, a class's
/// changes, its deleted objects, and (``HistoryService+Revert``) revert and restore as new changes.
///
/// Reading is authorized as if the caller read the objects directly:
/// 1. The class permission applies: `get` for one object's history, `find` for a class's history and its deleted
///    objects.
/// 2. An object's changes are shown only to a caller who may read the object now, or, for a deleted object, its
///    last version (the master key reads everything). A class's history leaves out the changes of objects the
///    caller may not read; a page may therefore hold fewer entries than its limit.
/// 3. Within an entry, each snapshot is shown only if the caller could read that version (``HistoryEntryRenderer``).
package struct HistoryService: Sendable {
    package let clock: ServerClock
    package let callers: CallerResolver
    /// Runs each app's retention now and then (``HistoryPruner``).
    package let pruner: HistoryPruner

    package init(clock: ServerClock, callers: CallerResolver, pruner: HistoryPruner) {
        self.clock = clock
        self.callers = callers
        self.pruner = pruner
    }

    /// One object's changes, newest first, as `{"results": [entry, …]}`.
    ///
    /// - Throws: ``BmobAPIError`` 101 when the object (or a deleted object's last version) is missing or not
    ///   readable, 501 when the class permission says no, 103 for a bad class name.
    package func objectHistory(
        className: String, objectId: String, filter: HistoryFilter, context: AppContext
    ) async throws -> JSONValue {
        try await entries(className: className, context: context) { scope, transaction in
            try ClassPermissions.check(.get, className: className, scope: scope, transaction: transaction)
            guard try Self.mayRead(className: className, objectId: objectId, scope: scope, transaction: transaction)
            else { throw BmobAPIError.objectNotFound(objectId) }
            return try transaction.history(filter.query(className: className, objectId: objectId))
        }
    }

    /// A class's changes, newest first, as `{"results": [entry, …]}`, without those of objects the caller may
    /// not read.
    package func classHistory(className: String, filter: HistoryFilter, context: AppContext) async throws -> JSONValue {
        try await entries(className: className, context: context) { scope, transaction in
            try ClassPermissions.check(.find, className: className, scope: scope, transaction: transaction)
            let found = try transaction.history(filter.query(className: className, objectId: nil))
            return try Self.readableEntries(found, scope: scope, transaction: transaction)
        }
    }

    /// A class's deleted objects that have not come back, newest first, as `{"results": [entry, …]}`: each the
    /// delete's entry, whose `before` is the object's last version; only those the caller could read.
    package func deletedObjects(className: String, filter: HistoryFilter, context: AppContext) async throws -> JSONValue {
        try await entries(className: className, context: context) { scope, transaction in
            try ClassPermissions.check(.find, className: className, scope: scope, transaction: transaction)
            let found = try transaction.deletedObjects(className: className, skip: filter.skip, limit: filter.limit)
            return found.filter { scope.canRead(StoredObject.acl(inJournalDocument: $0.before)) }
        }
    }

    /// The entries `select` reads for the caller (after checking the class name), rendered for the caller as
    /// `{"results": [entry, …]}`.
    private func entries(
        className: String, context: AppContext,
        _ select: @escaping @Sendable (AccessScope, any StoreReadTransaction) throws -> [JournalEntry]
    ) async throws -> JSONValue {
        try ObjectService.validateClassName(className)
        let scope = try await callers.caller(context).scope
        let renderer = HistoryEntryRenderer(scope: scope, renderer: context.renderer(for: scope))
        return try await ObjectService.mapStoreErrors {
            try await context.store.read { transaction in
                ["results": .array(try select(scope, transaction).map(renderer.render))]
            }
        }
    }

    /// Whether `scope` may read the object now: its current version, or for a deleted object its last one (the
    /// `before` of its newest delete entry). An id the journal never saw is not readable.
    static func mayRead(
        className: String, objectId: String, scope: AccessScope, transaction: any StoreReadTransaction
    ) throws -> Bool {
        if let current = try transaction.fetch(className: className, objectId: objectId) {
            return scope.canRead(current.acl)
        }
        guard let last = try transaction.history(JournalQuery(className: className, objectId: objectId, limit: 1)).first,
            last.op == .delete, let version = last.before
        else { return false }
        return scope.canRead(StoredObject.acl(inJournalDocument: version))
    }

    /// The entries of objects `scope` may read (rule 2), each object checked once.
    private static func readableEntries(
        _ entries: [JournalEntry], scope: AccessScope, transaction: any StoreReadTransaction
    ) throws -> [JournalEntry] {
        if case .master = scope { return entries }
        var readable: [String: Bool] = [:]
        var kept: [JournalEntry] = []
        for entry in entries {
            guard let objectId = entry.objectId else { continue }
            if readable[objectId] == nil {
                readable[objectId] = try mayRead(
                    className: entry.className, objectId: objectId, scope: scope, transaction: transaction)
            }
            if readable[objectId] == true { kept.append(entry) }
        }
        return kept
    }
}
