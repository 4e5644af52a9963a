extension JSONValue {
    /// The value with every whole number an integer: `3.0` becomes `.int(3)`, as sync values promise (`sync.md`
    /// §1.2: whole numbers arrive as `.int`). Numbers beyond Int64, fractions, NaN and infinities stay doubles.
    package var wholeNumbersAsIntegers: JSONValue {
        switch self {
        case .double(let value):
            if let whole = Int64(exactly: value) { .int(whole) } else { self }
        case .array(let items):
            .array(items.map(\.wholeNumbersAsIntegers))
        case .object(let members):
            .object(members.mapValues(\.wholeNumbersAsIntegers))
        case .null, .bool, .int, .string:
            self
        }
    }
}
