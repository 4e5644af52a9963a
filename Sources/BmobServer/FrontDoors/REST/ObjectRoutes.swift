import BmobHTTP
import BmobStore
import BmobWire

/// REST `/1/classes/<C>[/<id>]`: create, get, update, delete (find lives in ``QueryRoutes``).
package enum ObjectRoutes {
    package static func register(in router: inout BmobRouter, objects: ObjectService) {
        router.app(.post, "/1/classes/:className") { request, context in
            let className = request.parameter("className")
            // No body at all is a client mistake, not a request for an empty object (`{}` asks for one).
            guard !request.http.body.isEmpty else {
                throw BmobAPIError(.invalidJSON, "the body must be a JSON object; send {} for an object without fields")
            }
            let object = try await objects.create(className: className, body: try request.jsonObjectBody(), context: context)
            // Written directly, keys in the sorted order every response uses: the busiest write answer builds no
            // dictionary.
            var body: [UInt8] = []
            body.reserveCapacity(64)
            body.append(contentsOf: #"{"createdAt":"#.utf8)
            JSONValue.appendString(context.renderer.date(object.createdAt), to: &body)
            body.append(contentsOf: #","objectId":"#.utf8)
            JSONValue.appendString(object.objectId, to: &body)
            body.append(UInt8(ascii: "}"))
            let response = HTTPResponse.json(
                bytes: body, status: .created,
                extraHeaders: [HTTPField(name: "Location", value: location(request, className: className, objectId: object.objectId))])
            return response
        }
        router.app(.get, "/1/classes/:className/:objectId") { request, context in
            let include = request.http.query("include").map(commaList) ?? []
            let keys = request.http.query("keys").map(commaList)
            return .json(
                try await objects.get(
                    className: request.parameter("className"), objectId: request.parameter("objectId"),
                    include: include, keys: keys, context: context))
        }
        router.app(.put, "/1/classes/:className/:objectId") { request, context in
            let object = try await objects.update(
                className: request.parameter("className"), objectId: request.parameter("objectId"),
                body: try request.jsonObjectBody(), context: context)
            return .json(["updatedAt": .string(context.renderer.date(object.updatedAt))])
        }
        router.app(.delete, "/1/classes/:className/:objectId") { request, context in
            try await objects.delete(className: request.parameter("className"), objectId: request.parameter("objectId"), context: context)
            return .json(["msg": "ok"])
        }
    }

    /// `a, b ,c` → `["a", "b", "c"]` (Bmob's JS docs put spaces after commas).
    package static func commaList(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingSpaces() }.filter { !$0.isEmpty }
    }

    /// The `Location` of a created object: on the configured public URL, else a path relative to the request
    /// (never built from the request's `Host` header, which the client chooses).
    private static func location(_ request: BmobRequest, className: String, objectId: String) -> String {
        joined([request.server.configuration.publicURL ?? "", "/1/classes/", className, "/", objectId])
    }

    /// The pieces in one string, copied into one allocation: `+=` grew the string piece by piece, about
    /// 400 instructions per piece.
    private static func joined(_ pieces: [String]) -> String {
        let total = pieces.reduce(0) { $0 + $1.utf8.count }
        return String(unsafeUninitializedCapacity: total) { buffer in
            var offset = 0
            for var piece in pieces {
                piece.withUTF8 { bytes in
                    _ = UnsafeMutableBufferPointer(rebasing: buffer[offset...]).initialize(fromContentsOf: bytes)
                    offset += bytes.count
                }
            }
            return offset
        }
    }
}
