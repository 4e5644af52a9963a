package import BmobWire

/// Applies a create or update body to an object's fields: plain values, `__op` operators and dot paths into
/// objects and arrays, with Bmob's type rules. Pure: the service runs it inside the write transaction.
package struct ObjectMutation {
    /// The object's fields after the body.
    package var fields: [String: JSONValue]
    /// Types to record in the schema registry for the fields this body wrote, where the known schema does
    /// not hold that type already (empty for most writes, so recording them costs nothing).
    package var schema: [String: FieldSchema] = [:]
    /// The new ACL when the body set one; `.some(nil)` when it was deleted.
    package var acl: JSONValue??
    /// Relation members to add and remove, by field.
    package var relationsAdded: [String: [PointerValue]] = [:]
    package var relationsRemoved: [String: [PointerValue]] = [:]

    /// Applies `body` to `fields`.
    ///
    /// - Parameters:
    ///   - knownSchema: the registered types of the class, to reject operators on fields of another type.
    /// - Throws: ``BmobAPIError`` 105 (field names), 107/106/117 (values and operators), 111 (types).
    package init(body: [String: JSONValue], fields: [String: JSONValue], knownSchema: [String: FieldSchema]) throws(BmobAPIError) {
        // Room for every key up front: growing a dictionary one key at a time reallocates it. Made with
        // `minimumCapacity` where possible: `reserveCapacity` runs unspecialized here and looks up metadata.
        if fields.isEmpty {
            self.fields = Dictionary(minimumCapacity: body.count)
        } else {
            self.fields = fields
            self.fields.reserveCapacity(fields.count + body.count)
        }
        for (key, value) in body.sorted(by: { $0.key < $1.key }) {
            switch key {
            case "objectId", "createdAt", "updatedAt":
                continue  // system fields are the server's; clients echo them back, so they are ignored
            case "ACL":
                acl = .some(try Self.validateACL(value))
                continue
            default:
                break
            }
            // Most keys are plain field names; only dotted ones are split into a path.
            guard key.utf8.contains(UInt8(ascii: ".")) else {
                guard BmobName.isValidFieldName(key) else { throw BmobAPIError(.invalidFieldName, "invalid field name: \(key)") }
                try apply(try UpdateOperation(value, field: key), to: key, knownSchema: knownSchema)
                continue
            }
            let path = key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard BmobName.isValidFieldName(path[0]), path.dropFirst().allSatisfy({ !$0.isEmpty && !$0.hasPrefix("$") }) else {
                throw BmobAPIError(.invalidFieldName, "invalid field name: \(key)")
            }
            try apply(try UpdateOperation(value, field: key), at: path, knownSchema: knownSchema)
        }
    }

    private mutating func apply(_ operation: UpdateOperation, to field: String, knownSchema: [String: FieldSchema]) throws(BmobAPIError) {
        let current = fields[field]
        switch operation {
        case .addRelation(let targets), .removeRelation(let targets):
            let schema = FieldSchema(type: .relation, targetClass: targets[0].className)
            let known = knownSchema[field]
            try Self.check(field, known: known, wanted: schema)
            if known != schema { self.schema[field] = schema }
            fields[field] = ["__type": "Relation", "className": .string(targets[0].className)]
            if case .addRelation = operation {
                relationsAdded[field, default: []] += targets
            } else {
                relationsRemoved[field, default: []] += targets
            }
        default:
            let known = knownSchema[field]
            let updated = try Self.result(of: operation, on: current, field: field, known: known)
            if let updated {
                let (normalized, schema) = try FieldValues.normalize(updated, field: field)
                fields[field] = normalized
                if let schema, schema != known { self.schema[field] = schema }
            } else {
                fields[field] = nil
            }
        }
    }

    /// A dot path (`address.city`, `items.0.name`): the top-level field must be an object or an array.
    private mutating func apply(_ operation: UpdateOperation, at path: [String], knownSchema: [String: FieldSchema]) throws(BmobAPIError) {
        let top = path[0]
        let key = path.joined(separator: ".")
        if case .addRelation = operation { throw BmobAPIError(.invalidJSON, "relations cannot be nested: \(key)") }
        if case .removeRelation = operation { throw BmobAPIError(.invalidJSON, "relations cannot be nested: \(key)") }
        let current = fields[top] ?? .object([:])
        let container: BmobFieldType
        switch current {
        case .object: container = .object
        case .array: container = .array
        default:
            throw BmobAPIError(.incorrectType, "invalid type for key '\(top)', expected 'Object', but got '\(FieldValues.schema(of: current)?.displayName ?? "Null")'")
        }
        if let known = knownSchema[top], known.type != container {
            throw BmobAPIError(.incorrectType, "invalid type for key '\(top)', expected '\(known.displayName)', but got '\(container.rawValue)'")
        }
        let updated = try current.updating(path: path.dropFirst()[...], field: key) { (value: JSONValue?) throws(BmobAPIError) -> JSONValue? in
            try Self.result(of: operation, on: value, field: key, known: nil)
        }
        let (normalized, _) = try FieldValues.normalize(updated ?? .object([:]), field: top)
        fields[top] = normalized
        if knownSchema[top]?.type != container { schema[top] = FieldSchema(type: container) }
    }

    /// The value an operator leaves, `nil` for deleted.
    private static func result(of operation: UpdateOperation, on current: JSONValue?, field: String, known: FieldSchema?) throws(BmobAPIError) -> JSONValue? {
        switch operation {
        case .set(let value):
            return value
        case .delete:
            return nil
        case .increment(let amount):
            try check(field, known: known, wanted: FieldSchema(type: .number))
            switch current {
            case nil, .null?:
                return amount
            case .int(let base)?:
                if case .int(let step) = amount, case (let sum, false) = base.addingReportingOverflow(step) { return .int(sum) }
                return try finite(Double(base) + (amount.doubleValue ?? 0), field: field)
            case .double(let base)?:
                return try finite(base + (amount.doubleValue ?? 0), field: field)
            case let other?:
                throw mismatch(field, expected: "Number", got: other)
            }
        case .add(let objects), .addUnique(let objects), .remove(let objects):
            try check(field, known: known, wanted: FieldSchema(type: .array))
            var elements: [JSONValue]
            switch current {
            case nil, .null?: elements = []
            case .array(let existing)?: elements = existing
            case let other?: throw mismatch(field, expected: "Array", got: other)
            }
            switch operation {
            case .add:
                elements += objects
            case .addUnique:
                for object in objects where !elements.contains(object) { elements.append(object) }
            default:
                elements.removeAll { objects.contains($0) }
            }
            return .array(elements)
        case .addRelation, .removeRelation:
            return current
        }
    }

    /// A sum as a JSON number. JSON has no infinity, so a sum that overflows to ±inf would be stored as `null`:
    /// the write is refused instead (301) and the field keeps its value.
    private static func finite(_ sum: Double, field: String) throws(BmobAPIError) -> JSONValue {
        guard sum.isFinite else {
            throw BmobAPIError(.validationFailed, "Increment on key '\(field)' would overflow the range of a number")
        }
        return .double(sum)
    }

    private static func check(_ field: String, known: FieldSchema?, wanted: FieldSchema) throws(BmobAPIError) {
        guard let known, known.type != wanted.type || (wanted.targetClass != nil && known.targetClass != wanted.targetClass) else { return }
        throw BmobAPIError(.incorrectType, "invalid type for key '\(field)', expected '\(known.displayName)', but got '\(wanted.displayName)'")
    }

    private static func mismatch(_ field: String, expected: String, got value: JSONValue) -> BmobAPIError {
        BmobAPIError(.incorrectType, "invalid type for key '\(field)', expected '\(expected)', but got '\(FieldValues.schema(of: value)?.displayName ?? "Null")'")
    }

    /// Checks an ACL (`{"*":{"read":true}, "<userId>":{"write":true}, "role:Name":{…}}`) and keeps only the
    /// `true` permissions; `null` removes the ACL.
    static func validateACL(_ value: JSONValue) throws(BmobAPIError) -> JSONValue? {
        if value.isNull { return nil }
        guard case .object(let entries) = value else { throw BmobAPIError(.invalidJSON, "invalid ACL: expected an object") }
        var cleaned: [String: JSONValue] = [:]
        for (subject, permissions) in entries {
            guard !subject.isEmpty, subject.utf8.count <= 256, case .object(let rights) = permissions else {
                throw BmobAPIError(.invalidJSON, "invalid ACL entry '\(subject)'")
            }
            var kept: [String: JSONValue] = [:]
            for (right, allowed) in rights {
                guard right == "read" || right == "write", let allowed = allowed.boolValue else {
                    throw BmobAPIError(.invalidJSON, "invalid ACL permission '\(right)' for '\(subject)'")
                }
                if allowed { kept[right] = true }
            }
            if !kept.isEmpty { cleaned[subject] = .object(kept) }
        }
        return .object(cleaned)
    }
}
