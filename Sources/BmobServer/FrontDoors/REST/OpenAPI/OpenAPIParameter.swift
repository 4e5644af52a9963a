package import BmobWire

/// A path or query parameter of an operation.
package struct OpenAPIParameter: Sendable {
    /// Where the parameter goes.
    package enum Location: String, Sendable {
        case path, query
    }

    /// The name in the path (`:name` in the route) or the query string.
    package var name: String
    /// Path or query.
    package var location: Location
    /// Whether it must be sent (path parameters always).
    package var required: Bool
    /// What it means, for readers of the document.
    package var description: String
    /// The value's schema; for a parameter whose value is JSON text, the schema of the JSON (``isJSON``).
    package var schema: JSONValue
    /// Whether the value is JSON text (`where`, `values`): described as `content: application/json`.
    package var isJSON: Bool

    /// A path segment (always required).
    package static func path(_ name: String, _ description: String, schema: JSONValue = ["type": "string"]) -> Self {
        Self(name: name, location: .path, required: true, description: description, schema: schema, isJSON: false)
    }

    /// An optional query parameter.
    package static func query(
        _ name: String, _ description: String, schema: JSONValue = ["type": "string"], required: Bool = false
    ) -> Self {
        Self(name: name, location: .query, required: required, description: description, schema: schema, isJSON: false)
    }

    /// A query parameter whose value is JSON text matching `schema`.
    package static func jsonQuery(_ name: String, _ description: String, schema: JSONValue, required: Bool = false)
        -> Self
    {
        Self(name: name, location: .query, required: required, description: description, schema: schema, isJSON: true)
    }

    /// The parameter object.
    var json: JSONValue {
        var members: [String: JSONValue] = [
            "name": .string(name), "in": .string(location.rawValue), "required": .bool(required),
            "description": .string(description),
        ]
        if isJSON {
            members["content"] = ["application/json": ["schema": schema]]
        } else {
            members["schema"] = schema
        }
        return .object(members)
    }
}
