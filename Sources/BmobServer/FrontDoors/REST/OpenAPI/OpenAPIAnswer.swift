package import BmobWire

/// One successful answer of an operation: its status, body and headers.
package struct OpenAPIAnswer: Sendable {
    /// The HTTP status (200, 201).
    package var status: Int
    /// What the answer says, for readers of the document.
    package var description: String
    /// Schemas by media type.
    package var content: [String: JSONValue]
    /// Response headers by name, each a header object.
    package var headers: [String: JSONValue]

    /// A JSON answer matching `schema`.
    package static func json(_ schema: JSONValue, _ description: String, status: Int = 200) -> Self {
        Self(status: status, description: description, content: ["application/json": schema], headers: [:])
    }

    /// `201 Created` with `Location`, the new object's URL.
    package static func created(_ schema: JSONValue, _ description: String) -> Self {
        Self(
            status: 201, description: description, content: ["application/json": schema],
            headers: ["Location": ["description": "the new object's URL", "schema": ["type": "string"]]])
    }

    /// An HTML page (what a browser following a mailed link sees).
    package static func page(_ status: Int, _ description: String) -> Self {
        Self(status: status, description: description, content: ["text/html": ["type": "string"]], headers: [:])
    }

    /// An HTML page for a browser, `{"msg": "ok"}` for a JSON client.
    package static func pageOrOk(_ status: Int, _ description: String) -> Self {
        Self(
            status: status, description: description,
            content: ["text/html": ["type": "string"], "application/json": OpenAPISchemas.ref("Ok")], headers: [:])
    }

    /// A Bmob error as an HTML page for a browser, as JSON for other clients.
    package static func pageOrError(_ status: Int, _ description: String) -> Self {
        Self(
            status: status, description: description,
            content: ["text/html": ["type": "string"], "application/json": OpenAPISchemas.ref("Error")], headers: [:])
    }

    /// `{"msg": "ok"}`.
    package static let ok = Self.json(OpenAPISchemas.ref("Ok"), "done")

    /// The response object.
    var json: JSONValue {
        var members: [String: JSONValue] = [
            "description": .string(description), "content": .object(content.mapValues { JSONValue.object(["schema": $0]) }),
        ]
        if !headers.isEmpty { members["headers"] = .object(headers) }
        return .object(members)
    }
}
