package import BmobWire

extension OnebaseValue {
    /// The wire value (`BmobWire`'s JSON value), for the client's protocol code.
    package init(json: JSONValue) {
        switch json {
        case .null: self = .null
        case .bool(let value): self = .bool(value)
        case .int(let value): self = .int(value)
        case .double(let value): self = Int64(exactly: value).map(OnebaseValue.int) ?? .double(value)
        case .string(let value): self = .string(value)
        case .array(let items): self = .array(items.map(OnebaseValue.init(json:)))
        case .object(let members): self = .object(members.mapValues(OnebaseValue.init(json:)))
        }
    }

    /// The value as the wire's JSON value.
    package var json: JSONValue {
        switch self {
        case .null: .null
        case .bool(let value): .bool(value)
        case .int(let value): .int(value)
        case .double(let value): .double(value)
        case .string(let value): .string(value)
        case .array(let items): .array(items.map(\.json))
        case .object(let members): .object(members.mapValues(\.json))
        }
    }
}
