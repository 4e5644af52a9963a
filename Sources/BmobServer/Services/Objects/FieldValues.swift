package import BmobWire

/// Bmob's rules for the values clients store: typed values (`Date`, `Pointer`, `Relation`, `File`,
/// `GeoPoint`) are checked and normalised (dates to UTC `YYYY-MM-DD HH:MM:SS`), and each value gets the schema
/// type the registry records for its field.
package enum FieldValues {
    /// The normalised value and its schema type (`nil` for `null`, which does not fix a type).
    ///
    /// - Throws: ``BmobAPIError`` with 107 (bad date or unknown `__type`), 106 (bad pointer), 117 (GeoPoint
    ///   out of range) or 105 (a nested key that would break field paths).
    package static func normalize(_ value: JSONValue, field: String) throws(BmobAPIError) -> (JSONValue, FieldSchema?) {
        switch value {
        case .null:
            return (.null, nil)
        case .bool:
            return (value, FieldSchema(type: .boolean))
        case .int, .double:
            return (value, FieldSchema(type: .number))
        case .string:
            return (value, FieldSchema(type: .string))
        case .array(let elements):
            var normalized: [JSONValue] = []
            normalized.reserveCapacity(elements.count)
            for element in elements {
                normalized.append(try normalizeNested(element, field: field))
            }
            return (.array(normalized), FieldSchema(type: .array))
        case .object(let members):
            if let type = members["__type"]?.stringValue {
                return try normalizeTyped(type, members, field: field)
            }
            return (try normalizeNested(value, field: field), FieldSchema(type: .object))
        }
    }

    /// A value inside an array or object: typed values are checked the same way; keys must not contain `.`
    /// or start with `$`, which would make them unreachable by field paths and operators.
    private static func normalizeNested(_ value: JSONValue, field: String) throws(BmobAPIError) -> JSONValue {
        switch value {
        case .array(let elements):
            var normalized: [JSONValue] = []
            normalized.reserveCapacity(elements.count)
            for element in elements {
                normalized.append(try normalizeNested(element, field: field))
            }
            return .array(normalized)
        case .object(let members):
            if let type = members["__type"]?.stringValue {
                return try normalizeTyped(type, members, field: field).0
            }
            var normalized: [String: JSONValue] = [:]
            for (key, member) in members {
                guard !key.isEmpty, !key.hasPrefix("$"), !key.contains(".") else {
                    throw BmobAPIError(.invalidFieldName, "invalid key '\(key)' inside field '\(field)'")
                }
                normalized[key] = try normalizeNested(member, field: field)
            }
            return .object(normalized)
        default:
            return value
        }
    }

    private static func normalizeTyped(
        _ type: String,
        _ members: [String: JSONValue],
        field: String
    ) throws(BmobAPIError) -> (JSONValue, FieldSchema?) {
        switch type {
        case "Date":
            guard let iso = members["iso"]?.stringValue, let milliseconds = BmobDateFormat.parse(iso) else {
                throw BmobAPIError(.invalidJSON, "invalid date for key '\(field)'")
            }
            return (dateValue(milliseconds), FieldSchema(type: .date))
        case "Pointer", "Object":
            // An included object sent back by a client is stored as the pointer it was.
            guard let className = members["className"]?.stringValue, BmobName.isValidClassName(className),
                let objectId = members["objectId"]?.stringValue, !objectId.isEmpty, objectId.utf8.count <= 128
            else {
                throw BmobAPIError(.invalidPointer, "invalid pointer for key '\(field)'")
            }
            return (PointerValue(className: className, objectId: objectId).json, FieldSchema(type: .pointer, targetClass: className))
        case "Relation":
            guard let className = members["className"]?.stringValue, BmobName.isValidClassName(className) else {
                throw BmobAPIError(.missingRelationClass, "relation for key '\(field)' needs a valid className")
            }
            return (["__type": "Relation", "className": .string(className)], FieldSchema(type: .relation, targetClass: className))
        case "File":
            let url = members["url"]?.stringValue
            let filename = members["filename"]?.stringValue ?? members["name"]?.stringValue
            guard url != nil || filename != nil else {
                throw BmobAPIError(.invalidJSON, "a File for key '\(field)' needs a url or a filename")
            }
            var file: [String: JSONValue] = ["__type": "File"]
            file["url"] = url.map(JSONValue.string)
            file["filename"] = filename.map(JSONValue.string)
            file["group"] = (members["group"] ?? members["cdn"]).flatMap(\.stringValue).map(JSONValue.string)
            return (.object(file), FieldSchema(type: .file))
        case "GeoPoint":
            guard let point = GeoPointValue(json: .object(members)) else {
                throw BmobAPIError(.invalidGeoPoint, "invalid GeoPoint for key '\(field)'")
            }
            guard point.isValid else {
                throw BmobAPIError(.invalidGeoPoint, "latitude must be within -90...90 and longitude within -180...180")
            }
            return (point.json, FieldSchema(type: .geoPoint))
        default:
            throw BmobAPIError(.invalidJSON, "unknown __type '\(type)' for key '\(field)'")
        }
    }

    /// A stored Date value.
    package static func dateValue(_ milliseconds: Int64) -> JSONValue {
        ["__type": "Date", "iso": .string(BmobDateFormat.format(millisecondsSince1970: milliseconds))]
    }

    /// The schema type Bmob reports for a stored value, for type-mismatch messages.
    package static func schema(of value: JSONValue) -> FieldSchema? {
        (try? normalize(value, field: "")).flatMap(\.1)
    }
}
