extension OnebaseValue {
    /// The string, if this is one.
    public var string: String? {
        if case .string(let value) = self { value } else { nil }
    }

    /// The whole number, if this is one (a double with no fraction counts).
    public var int: Int64? {
        switch self {
        case .int(let value): value
        case .double(let value): Int64(exactly: value)
        default: nil
        }
    }

    /// The number as a `Double`, if this is a number (whole numbers included, since they arrive as ``int(_:)``).
    public var double: Double? {
        switch self {
        case .double(let value): value
        case .int(let value): Double(value)
        default: nil
        }
    }

    /// The Boolean, if this is one.
    public var bool: Bool? {
        if case .bool(let value) = self { value } else { nil }
    }

    /// The elements, if this is an array.
    public var array: [OnebaseValue]? {
        if case .array(let value) = self { value } else { nil }
    }

    /// The members, if this is an object.
    public var object: [String: OnebaseValue]? {
        if case .object(let value) = self { value } else { nil }
    }

    /// Whether this is ``null``.
    public var isNull: Bool {
        if case .null = self { true } else { false }
    }

    /// The value at a path of object keys: `value["user", "name"]` is `value.object?["user"]?.object?["name"]`;
    /// `nil` when a key is missing or a step is not an object.
    public subscript(keys: String...) -> OnebaseValue? {
        var current = self
        for key in keys {
            guard case .object(let members) = current, let next = members[key] else { return nil }
            current = next
        }
        return current
    }

    /// The element at `index`; `nil` when this is not an array or the index is out of range.
    public subscript(index: Int) -> OnebaseValue? {
        guard case .array(let items) = self, items.indices.contains(index) else { return nil }
        return items[index]
    }
}
