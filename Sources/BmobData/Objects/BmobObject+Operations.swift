import BmobCore
import BmobWire
import Foundation

extension BmobObject {
    /// Adds `amount` (negative to subtract) to a number field on the server, atomically.
    public func increment(_ key: String, by amount: Int = 1) {
        apply(key, operation: ["__op": "Increment", "amount": .int(Int64(amount))]) { current in
            if case .double(let value)? = current { return .double(value + Double(amount)) }
            return .int((current?.int64Value ?? 0) + Int64(amount))
        }
    }

    /// Adds `amount` to a number field on the server, atomically.
    public func increment(_ key: String, by amount: Double) {
        apply(key, operation: ["__op": "Increment", "amount": .double(amount)]) { current in
            .double((current?.doubleValue ?? 0) + amount)
        }
    }

    /// Subtracts `amount` from a number field on the server, atomically.
    public func decrement(_ key: String, by amount: Int = 1) {
        increment(key, by: -amount)
    }

    /// Appends `objects` to an array field.
    public func add(_ key: String, objects: [Any]) {
        arrayOperation(key, "Add", objects) { current, values in current + values }
    }

    /// Appends those of `objects` the array field does not hold yet.
    public func addUnique(_ key: String, objects: [Any]) {
        arrayOperation(key, "AddUnique", objects) { current, values in
            var result = current
            for value in values where !result.contains(value) { result.append(value) }
            return result
        }
    }

    /// Removes every occurrence of `objects` from an array field.
    public func remove(_ key: String, objects: [Any]) {
        arrayOperation(key, "Remove", objects) { current, values in current.filter { !values.contains($0) } }
    }

    /// Deletes a field on the next save.
    public func deleteField(_ key: String) {
        self[key] = nil
    }

    /// Adds objects to a relation field.
    public func addRelation(_ key: String, objects: [BmobPointer]) {
        relationOperation(key, "AddRelation", objects)
    }

    /// Removes objects from a relation field.
    public func removeRelation(_ key: String, objects: [BmobPointer]) {
        relationOperation(key, "RemoveRelation", objects)
    }

    private func relationOperation(_ key: String, _ name: String, _ objects: [BmobPointer]) {
        let className = objects.first?.className ?? ""
        apply(key, operation: ["__op": .string(name), "objects": .array(objects.map(\.bmobJSON))], foldable: false) { _ in
            .object(["__type": "Relation", "className": .string(className)])
        }
    }

    private func arrayOperation(
        _ key: String, _ name: String, _ objects: [Any], _ local: @escaping ([JSONValue], [JSONValue]) -> [JSONValue]
    ) {
        do {
            let values = try objects.map { (object) throws(BmobError) in try BmobValueCoding.encode(object) }
            apply(key, operation: ["__op": .string(name), "objects": .array(values)]) { current in
                .array(local(current?.arrayValue ?? [], values))
            }
        } catch {
            record(error)
        }
    }

    /// Records an operation for the next save and applies it to the local value. On a new object, or on a key
    /// already being set to a value, the resulting value is sent instead (when `foldable`: relations are
    /// always sent as operations). Two increments add up; otherwise a later operation on the same key replaces
    /// the earlier one (Bmob accepts one operation per key in a request).
    private func apply(_ key: String, operation: JSONValue, foldable: Bool = true, local: (JSONValue?) -> JSONValue) {
        lock.withLock {
            let updated = local(fields[key])
            fields[key] = updated
            if foldable, storedObjectId == nil || (pending[key] != nil && pending[key]?["__op"] == nil) {
                // A new object, or a key already being set to a value: send the resulting value.
                pending[key] = updated
            } else if let previous = pending[key], previous["__op"]?.stringValue == "Increment",
                operation["__op"]?.stringValue == "Increment",
                let sum = Self.sum(previous["amount"], operation["amount"])
            {
                pending[key] = ["__op": "Increment", "amount": sum]
            } else {
                pending[key] = operation
            }
        }
    }

    private static func sum(_ lhs: JSONValue?, _ rhs: JSONValue?) -> JSONValue? {
        if case .int(let a)? = lhs, case .int(let b)? = rhs { return .int(a + b) }
        guard let a = lhs?.doubleValue, let b = rhs?.doubleValue else { return nil }
        return .double(a + b)
    }
}
