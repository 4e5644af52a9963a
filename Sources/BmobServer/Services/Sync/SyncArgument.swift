public import BmobWire

/// What a sync function's argument must be: the validators checked before a function's body runs, so that a body
/// sees only the shapes it declared (Convex's `v.string()`, `v.optional(…)` …).
///
/// A function declares its arguments as `[name: SyncArgument]`; arguments it does not declare are refused, and
/// a missing one is refused unless it is ``optional(_:)``.
public indirect enum SyncArgument: Sendable, Hashable {
    /// Any string.
    case string
    /// A whole number (JSON numbers without a fraction).
    case int
    /// Any number; whole numbers are accepted, as they arrive as integers.
    case double
    /// `true` or `false`.
    case bool
    /// JSON `null`.
    case null
    /// An objectId: 1 to 64 letters, digits, `_` or `-`.
    case id
    /// An array whose every element is the given shape.
    case array(SyncArgument)
    /// An object with exactly these members (optional members may be missing).
    case object([String: SyncArgument])
    /// The shape, or missing (or `null`).
    case optional(SyncArgument)
    /// Exactly this value.
    case literal(JSONValue)
    /// Any one of these shapes.
    case union([SyncArgument])
    /// Any value.
    case any

    /// Checks `value` (`nil`: missing) against the shape.
    ///
    /// - Parameter path: where the value sits, for the message (`args.text`).
    /// - Returns: why it does not match, or `nil` when it does.
    package func mismatch(_ value: JSONValue?, at path: String) -> String? {
        if case .optional(let inner) = self {
            guard let value, value != .null else { return nil }
            return inner.mismatch(value, at: path)
        }
        guard let value else { return "\(path) is missing" }
        switch self {
        case .string:
            return value.stringValue == nil ? "\(path) must be a string" : nil
        case .int:
            if case .int = value { return nil }
            return "\(path) must be a whole number"
        case .double:
            switch value {
            case .int, .double: return nil
            default: return "\(path) must be a number"
            }
        case .bool:
            if case .bool = value { return nil }
            return "\(path) must be true or false"
        case .null:
            return value == .null ? nil : "\(path) must be null"
        case .id:
            guard let text = value.stringValue, (1...64).contains(text.utf8.count),
                text.utf8.allSatisfy({ Self.isIdByte($0) })
            else { return "\(path) must be an objectId" }
            return nil
        case .array(let element):
            guard let elements = value.arrayValue else { return "\(path) must be an array" }
            for (index, item) in elements.enumerated() {
                if let problem = element.mismatch(item, at: "\(path)[\(index)]") { return problem }
            }
            return nil
        case .object(let members):
            guard let object = value.objectValue else { return "\(path) must be an object" }
            return Self.mismatch(object, members, at: path)
        case .literal(let expected):
            return value == expected ? nil : "\(path) must be \(expected.jsonString)"
        case .union(let shapes):
            return shapes.contains { $0.mismatch(value, at: path) == nil } ? nil : "\(path) matches none of its allowed shapes"
        case .any:
            return nil
        case .optional:
            return nil
        }
    }

    /// Checks an object's members against `members`: undeclared members are refused.
    package static func mismatch(_ object: [String: JSONValue], _ members: [String: SyncArgument], at path: String) -> String? {
        for name in object.keys.sorted() where members[name] == nil {
            return "\(path).\(name) is not an argument of this function"
        }
        for (name, shape) in members.sorted(by: { $0.key < $1.key }) {
            if let problem = shape.mismatch(object[name], at: "\(path).\(name)") { return problem }
        }
        return nil
    }

    private static func isIdByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "_"), UInt8(ascii: "-"):
            true
        default:
            false
        }
    }
}
