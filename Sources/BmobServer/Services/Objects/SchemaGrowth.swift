package import BmobStore
package import BmobWire

/// The rules on how far a write may grow an app's data, checked inside the write's transaction:
///
/// - **New classes and fields.** A write that adds fields to an existing class needs the class's `addField`
///   permission (501). Callers without the master key may create classes or add fields only while the app's
///   ``AppSecurity/allowClientClassCreation`` is on (501 otherwise).
/// - **Limits** (301, for every caller, the master key included): at most ``AppSecurity/maxClasses`` classes
///   and ``AppSecurity/maxFieldsPerClass`` fields per class. (``AppSecurity/maxObjectBytes`` is the store's:
///   it checks the JSON text it writes anyway, see `AppStoreOptions.maximumDocumentBytes`.)
///
/// Without an ``AppSecurity`` (the server's own writes) only class permissions apply.
package enum SchemaGrowth {
    /// A body with more keys than a class may have fields is refused before any work is done on it.
    ///
    /// - Throws: 301 when `body` has more keys than ``AppSecurity/maxFieldsPerClass`` allows.
    package static func checkBody(_ body: [String: JSONValue], _ security: AppSecurity) throws(BmobAPIError) {
        // The system keys (objectId, ACL, …) come on top of the fields.
        guard body.count <= security.maxFieldsPerClass + 8 else {
            throw tooManyFields(security)
        }
    }

    /// Checks what `mutation` adds to `className`, whose recorded fields are `knownSchema`.
    ///
    /// - Throws: ``BmobAPIError`` 501 for a class or field the caller may not add, 301 for a limit.
    package static func check(
        _ mutation: ObjectMutation, _ knownSchema: [String: FieldSchema], className: String, scope: AccessScope,
        security: AppSecurity?, transaction: any StoreWriteTransaction
    ) throws {
        let added = mutation.schema.keys.reduce(0) { $0 + (knownSchema[$1] == nil ? 1 : 0) }
        // Most writes use known fields of a class that has some: nothing to look up.
        if added > 0 || knownSchema.isEmpty {
            try checkAdded(
                count: added, knownSchema, className: className, scope: scope, security: security,
                transaction: transaction)
        }
    }

    private static func checkAdded(
        count added: Int, _ knownSchema: [String: FieldSchema], className: String, scope: AccessScope,
        security: AppSecurity?, transaction: any StoreWriteTransaction
    ) throws {
        let exists = try !knownSchema.isEmpty || transaction.classNames().contains(className)
        let client: Bool = if case .grantees = scope { true } else { false }
        if exists {
            guard added > 0 else { return }
            // A class's first write creates it; only an existing class's permissions can forbid new fields.
            try ClassPermissions.check(.addField, className: className, scope: scope, transaction: transaction)
        }
        guard let security else { return }
        if client, !security.allowClientClassCreation {
            throw BmobAPIError(
                .forbidden,
                exists
                    ? "fields can be added to \(className) only with the master key (the app's allowClientClassCreation is off)"
                    : "classes can be created only with the master key (the app's allowClientClassCreation is off)")
        }
        if !exists, try transaction.classNames().count >= security.maxClasses {
            throw BmobAPIError(
                .validationFailed, "the app has \(security.maxClasses) classes, its limit (the app's maxClasses)")
        }
        guard knownSchema.count + added <= security.maxFieldsPerClass else { throw tooManyFields(security) }
    }

    /// Checks a schema change made with the master key through `/1/schemas`: the size limits only.
    ///
    /// - Throws: 301 when the change would pass ``AppSecurity/maxClasses`` or ``AppSecurity/maxFieldsPerClass``.
    package static func checkSchemaChange(
        className: String, adding fields: [String: FieldSchema], security: AppSecurity,
        transaction: any StoreWriteTransaction
    ) throws {
        let classes = try transaction.classNames()
        if !classes.contains(className), classes.count >= security.maxClasses {
            throw BmobAPIError(
                .validationFailed, "the app has \(security.maxClasses) classes, its limit (the app's maxClasses)")
        }
        let known = try transaction.schema(className: className)
        let added = fields.keys.reduce(0) { $0 + (known[$1] == nil ? 1 : 0) }
        guard known.count + added <= security.maxFieldsPerClass else { throw tooManyFields(security) }
    }

    private static func tooManyFields(_ security: AppSecurity) -> BmobAPIError {
        BmobAPIError(
            .validationFailed,
            "a class has at most \(security.maxFieldsPerClass) fields (the app's maxFieldsPerClass)")
    }
}
