package import BmobWire

/// What an operation reads from the request body.
package struct OpenAPIRequestBody: Sendable {
    /// What the body holds, for readers of the document.
    package var description: String
    /// Schemas by media type.
    package var content: [String: JSONValue]
    /// Whether a request without a body is refused.
    package var required: Bool

    /// A JSON body matching `schema`.
    package static func json(_ schema: JSONValue, _ description: String, required: Bool = true) -> Self {
        Self(description: description, content: ["application/json": schema], required: required)
    }

    /// A form (what Pusher's and browsers' clients send) or a JSON object with the same members.
    package static func formOrJSON(_ schema: JSONValue, _ description: String, required: Bool = true) -> Self {
        Self(
            description: description,
            content: ["application/x-www-form-urlencoded": schema, "application/json": schema], required: required)
    }

    /// Raw bytes of any type (a file).
    package static func bytes(_ description: String) -> Self {
        Self(
            description: description, content: ["application/octet-stream": ["type": "string", "format": "binary"]],
            required: true)
    }

    /// The request body object.
    var json: JSONValue {
        [
            "description": .string(description), "required": .bool(required),
            "content": .object(content.mapValues { JSONValue.object(["schema": $0]) }),
        ]
    }
}
