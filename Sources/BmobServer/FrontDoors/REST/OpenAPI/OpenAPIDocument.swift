package import BmobWire

/// The OpenAPI 3.1 document of the REST API, built once from the router's routes: each route under `/1/` and
/// `/2/` becomes an operation with its ``RESTAPI`` entry, so the document lists exactly what is routed. The other
/// doors (`/8/`, socket.io, channels, sync, S3 multipart, file downloads, `/health`, `/metrics`) speak other
/// protocols and are left out.
package struct OpenAPIDocument: Sendable {
    /// The document.
    package let json: JSONValue
    /// ``json`` encoded, as `GET /1/openapi.json` answers it.
    package let bytes: [UInt8]
    /// REST routes (`"<METHOD> <pattern>"`) with no ``RESTAPI`` entry: each is in the document with a bare
    /// operation, and a test fails on them.
    package let undocumented: [String]
    /// ``RESTAPI`` entries that no route has (a route renamed or removed): left out, and a test fails on them.
    package let unrouted: [String]

    /// Builds the document of `routes` (method and pattern, in registration order) from `entries`.
    package init(routes: [(method: HTTPMethod, pattern: String)], entries: [String: OpenAPIOperation] = RESTAPI.operations) {
        var paths: [String: [String: JSONValue]] = [:]
        var undocumented: [String] = []
        var routed: Set<String> = []
        for route in routes where Self.isREST(route.pattern) {
            let key = "\(route.method.rawValue) \(route.pattern)"
            routed.insert(key)
            let path = Self.path(of: route.pattern)
            let operationId = Self.operationId(method: route.method, pattern: route.pattern)
            let method = route.method.rawValue.lowercased()
            if let entry = entries[key] {
                paths[path, default: [:]][method] = entry.json(operationId: operationId)
            } else {
                undocumented.append(key)
                paths[path, default: [:]][method] = [
                    "operationId": .string(operationId), "summary": "undocumented",
                    "responses": ["default": ["$ref": "#/components/responses/Error"]],
                ]
            }
        }
        self.undocumented = undocumented
        self.unrouted = entries.keys.filter { !routed.contains($0) }.sorted()
        json = [
            "openapi": "3.1.0",
            "info": [
                "title": "Bmob Swift REST API",
                "version": .string(Server.version),
                "description": """
                    Bmob's REST API as this server serves it. Requests carry the app's keys as headers \
                    (X-Bmob-Application-Id with X-Bmob-REST-API-Key or X-Bmob-Master-Key, and X-Bmob-Session-Token \
                    for a user). Every error is {"code": <Bmob code>, "error": "<message>"}.
                    """,
            ],
            "tags": .array(RESTAPI.tags.map { ["name": .string($0.name), "description": .string($0.description)] }),
            "paths": .object(paths.mapValues { JSONValue.object($0) }),
            "components": OpenAPISchemas.components,
        ]
        bytes = json.jsonBytes
    }

    /// Whether a route pattern is one of the REST API's (`/1/…`, `/2/…`).
    package static func isREST(_ pattern: String) -> Bool {
        pattern.hasPrefix("/1/") || pattern.hasPrefix("/2/")
    }

    /// The OpenAPI path of a route pattern: `:name` → `{name}`, the trailing `**` (the rest of the path) → `{key}`.
    package static func path(of pattern: String) -> String {
        pattern.split(separator: "/", omittingEmptySubsequences: false).map { segment -> String in
            if segment == "**" { return "{key}" }
            if segment.first == ":" { return "{\(segment.dropFirst())}" }
            return String(segment)
        }.joined(separator: "/")
    }

    /// `get_1_classes_className_objectId`: the method and the pattern's words.
    static func operationId(method: HTTPMethod, pattern: String) -> String {
        let words = pattern.split { !$0.isLetter && !$0.isNumber }.map(String.init)
        return ([method.rawValue.lowercased()] + words).joined(separator: "_")
    }
}
