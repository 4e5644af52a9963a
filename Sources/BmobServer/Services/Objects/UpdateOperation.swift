package import BmobWire

/// What a body key asks for: a plain value, or one of Bmob's `__op` operators.
package enum UpdateOperation: Sendable, Equatable {
    case set(JSONValue)
    case delete
    case increment(JSONValue)
    case add([JSONValue])
    case addUnique([JSONValue])
    case remove([JSONValue])
    case addRelation([PointerValue])
    case removeRelation([PointerValue])

    /// Reads a body value: `{"__op": …}` objects become operators, anything else is set as given.
    ///
    /// - Throws: ``BmobAPIError`` 107 for an unknown or malformed operator, 106 for bad relation targets.
    package init(_ value: JSONValue, field: String) throws(BmobAPIError) {
        guard case .object(let members) = value, let name = members["__op"] else {
            self = .set(value)
            return
        }
        guard let name = name.stringValue else { throw BmobAPIError(.invalidJSON, "invalid __op for key '\(field)'") }
        func objects() throws(BmobAPIError) -> [JSONValue] {
            guard let objects = members["objects"]?.arrayValue else {
                throw BmobAPIError(.invalidJSON, "\(name) on key '\(field)' needs an 'objects' array")
            }
            return objects
        }
        switch name {
        case "Delete":
            self = .delete
        case "Increment":
            guard let amount = members["amount"], amount.doubleValue != nil else {
                throw BmobAPIError(.invalidJSON, "Increment on key '\(field)' needs a numeric 'amount'")
            }
            self = .increment(amount)
        case "Add":
            self = .add(try objects())
        case "AddUnique":
            self = .addUnique(try objects())
        case "Remove":
            self = .remove(try objects())
        case "AddRelation", "RemoveRelation":
            var pointers: [PointerValue] = []
            for object in try objects() {
                guard let pointer = PointerValue(json: object), BmobName.isValidClassName(pointer.className) else {
                    throw BmobAPIError(.invalidPointer, "\(name) on key '\(field)' needs Pointer objects")
                }
                pointers.append(pointer)
            }
            guard let first = pointers.first, pointers.allSatisfy({ $0.className == first.className }) else {
                throw BmobAPIError(.invalidPointer, "\(name) on key '\(field)' needs pointers to one class")
            }
            self = name == "AddRelation" ? .addRelation(pointers) : .removeRelation(pointers)
        default:
            throw BmobAPIError(.invalidJSON, "unknown __op '\(name)' for key '\(field)'")
        }
    }
}
