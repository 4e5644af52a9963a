import BmobServer
import BmobTesting
import BmobWire
import Testing

/// `GET /1/openapi.json`: built from the router's routes, so it cannot drift from them; served without keys.
@Suite struct OpenAPIDocumentTests {
    @Test func everyRESTRouteHasAnEntryAndEveryEntryARoute() async throws {
        try await withTestServer { server in
            let document = server.server.openAPI
            #expect(document.undocumented == [], "routes without an entry in RESTAPI")
            #expect(document.unrouted == [], "RESTAPI entries without a route")
            let paths = try #require(document.json["paths"]?.objectValue)
            #expect(paths.keys.allSatisfy { OpenAPIDocument.isREST($0) })
            #expect(paths["/1/classes/{className}/{objectId}"]?["put"] != nil)
            #expect(paths["/2/files/{name}/{key}"]?["delete"] != nil)
            #expect(paths["/1/openapi.json"]?["get"] != nil)
            // Other doors speak other protocols.
            #expect(paths.keys.contains { $0.hasPrefix("/8/") || $0.hasPrefix("/apps/") || $0 == "/health" } == false)
        }
    }

    @Test func aRouteMissingFromTheEntriesOrAnEntryMissingFromTheRoutesIsReported() {
        let document = OpenAPIDocument(
            routes: [(.get, "/1/timestamp"), (.post, "/1/brandNew/:id"), (.get, "/8/secret"), (.get, "/health")],
            entries: RESTAPI.operations.filter { $0.key == "GET /1/timestamp" || $0.key == "GET /1/cloudQuery" })
        #expect(document.undocumented == ["POST /1/brandNew/:id"])
        #expect(document.unrouted == ["GET /1/cloudQuery"])
        // The undocumented route is still listed, so the document says what is served.
        #expect(document.json["paths"]?["/1/brandNew/{id}"]?["post"] != nil)
        #expect(document.json["paths"]?["/8/secret"] == nil)
    }

    /// Each operation's path parameters are exactly the path's `{names}`, operation ids are unique, every
    /// `$ref` names a component, and each operation answers its errors in the shared `Error` shape.
    @Test func theDocumentIsConsistent() async throws {
        try await withTestServer { server in
            let json = server.server.openAPI.json
            #expect(json["openapi"] == "3.1.0")
            let paths = try #require(json["paths"]?.objectValue)
            var operationIds: Set<String> = []
            for (path, item) in paths {
                let names = Set(path.split(separator: "/").filter { $0.hasPrefix("{") }.map { String($0.dropFirst().dropLast()) })
                for (method, operation) in try #require(item.objectValue) {
                    let declared = Set(
                        (operation["parameters"]?.arrayValue ?? []).filter { $0["in"] == "path" }.compactMap { $0["name"]?.stringValue })
                    #expect(declared == names, "\(method) \(path)")
                    let id = try #require(operation["operationId"]?.stringValue)
                    #expect(operationIds.insert(id).inserted, "duplicate operationId \(id)")
                    let responses = try #require(operation["responses"]?.objectValue)
                    #expect(responses["400"] != nil && responses["503"] != nil, "\(method) \(path)")
                    #expect(responses.keys.contains { $0.hasPrefix("2") }, "\(method) \(path) has no success")
                    let security = operation["security"]?.arrayValue ?? []
                    if !security.isEmpty, !security.contains([:]) {
                        #expect(responses["401"] != nil, "\(method) \(path) needs keys but lists no 401")
                    }
                }
            }
            let schemas = try #require(json["components"]?["schemas"]?.objectValue)
            let responses = try #require(json["components"]?["responses"]?.objectValue)
            for reference in Self.references(in: json) {
                let parts = reference.split(separator: "/")
                #expect(parts.count == 4, "\(reference)")
                let known = parts[2] == "schemas" ? schemas[String(parts[3])] : responses[String(parts[3])]
                #expect(known != nil, "\(reference) names no component")
            }
            #expect(schemas["Error"]?["required"] == ["code", "error"])
        }
    }

    @Test func servedWithoutKeysAsJSONTheSameBytesEachTime() async throws {
        try await withTestServer { server in
            let first = try await server.request("GET", "/1/openapi.json")
            #expect(first.status == 200)
            #expect(first.headers["Content-Type"]?.hasPrefix("application/json") == true)
            #expect(first.json?["info"]?["title"] == "Bmob Swift REST API")
            #expect(first.body == server.server.openAPI.bytes)
            let withKeys = try await server.request("GET", "/1/openapi.json/", headers: server.masterHeaders)
            #expect(withKeys.body == first.body)
            let wrongMethod = try await server.request("POST", "/1/openapi.json", body: [])
            #expect(wrongMethod.status == 405)
            #expect(wrongMethod.json?["code"] == 405)
        }
    }

    /// Every `$ref` in `value`.
    private static func references(in value: JSONValue) -> [String] {
        switch value {
        case .object(let members):
            return (members["$ref"]?.stringValue.map { [$0] } ?? []) + members.values.flatMap(references)
        case .array(let items):
            return items.flatMap(references)
        default:
            return []
        }
    }
}
