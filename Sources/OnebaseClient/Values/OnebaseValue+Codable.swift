import Foundation

extension OnebaseValue: Codable {
    /// Reads any JSON value; whole numbers become ``int(_:)``.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = Int64(exactly: value).map(OnebaseValue.int) ?? .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([OnebaseValue].self) {
            self = .array(value)
        } else if let value = try? container.decode([String: OnebaseValue].self) {
            self = .object(value)
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a JSON value")
        }
    }

    /// Writes the JSON value.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// Your `Encodable` value as the JSON value it encodes to (dates as ISO 8601 text, data as base64).
    ///
    /// - Throws: the encoder's error, e.g. for a non-finite double.
    public init(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let data = try encoder.encode(value)
        self = try JSONDecoder().decode(OnebaseValue.self, from: data)
    }

    /// The value read as your `Decodable` type (dates as ISO 8601 text, data as base64).
    ///
    /// - Throws: `DecodingError` when the value does not fit the type.
    public func decode<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        let data = try JSONEncoder().encode(self)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(type, from: data)
    }
}
