package import BmobWire

extension JSONValue {
    /// Replaces the value at `path` inside this value (object keys, or array indexes given as digits) with
    /// what `transform` returns for the current one; `nil` from `transform` removes it. Missing objects on
    /// the way are created.
    ///
    /// - Throws: what `transform` throws, or ``BmobAPIError`` 111 when the path runs into a value that is
    ///   neither an object nor an array, or an array index is out of range.
    package func updating(
        path: ArraySlice<String>,
        field: String,
        _ transform: (JSONValue?) throws(BmobAPIError) -> JSONValue?
    ) throws(BmobAPIError) -> JSONValue? {
        guard let key = path.first else { return try transform(self) }
        let rest = path.dropFirst()
        switch self {
        case .object(var members):
            let updated = try (members[key] ?? .null).updatingChild(present: members[key] != nil, path: rest, field: field, transform)
            members[key] = updated
            return .object(members)
        case .array(var elements):
            guard let index = Int(key), index >= 0, index < elements.count else {
                throw BmobAPIError(.incorrectType, "invalid array index '\(key)' in key '\(field)'")
            }
            if let updated = try elements[index].updatingChild(present: true, path: rest, field: field, transform) {
                elements[index] = updated
            } else {
                elements.remove(at: index)
            }
            return .array(elements)
        case .null:
            return try JSONValue.object([:]).updating(path: path, field: field, transform)
        default:
            throw BmobAPIError(.incorrectType, "key '\(field)' goes through a value that is not an object")
        }
    }

    private func updatingChild(
        present: Bool,
        path: ArraySlice<String>,
        field: String,
        _ transform: (JSONValue?) throws(BmobAPIError) -> JSONValue?
    ) throws(BmobAPIError) -> JSONValue? {
        if path.isEmpty { return try transform(present ? self : nil) }
        return try updating(path: path, field: field, transform)
    }
}
