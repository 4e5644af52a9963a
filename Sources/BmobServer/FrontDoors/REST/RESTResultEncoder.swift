import BmobStore
package import BmobHTTP
package import BmobWire

/// The REST door's one encoder: an ``OperationResult`` as Bmob's REST answer (status, headers, JSON body).
/// Batch elements, in REST and in `/8/batch`, carry the same bodies under `success`.
package enum RESTResultEncoder {
    /// The HTTP answer to `result`.
    package static func response(_ result: OperationResult, context: AppContext, server: ServerContext)
        -> HTTPResponse
    {
        switch result {
        case .created(let object):
            // Written directly, keys in the sorted order every response uses: the busiest write answer builds no
            // dictionary.
            var body: [UInt8] = []
            body.reserveCapacity(64)
            body.append(contentsOf: #"{"createdAt":"#.utf8)
            context.renderer.appendDate(object.createdAt, to: &body)
            body.append(contentsOf: #","objectId":"#.utf8)
            JSONValue.appendString(object.objectId, to: &body)
            body.append(UInt8(ascii: "}"))
            let location = location(className: object.className, objectId: object.objectId, server: server)
            return .json(bytes: body, status: .created, extraHeaders: [HTTPField(name: "Location", value: location)])
        case .signedUp(let login):
            var response = HTTPResponse.json(body(result, context: context), status: .created)
            response.headers.add(
                name: "Location", value: location(className: UserService.className, objectId: login.user.objectId, server: server))
            return response
        case .loggedIn(_, let answersCreated):
            return .json(body(result, context: context), status: answersCreated ? .created : .ok)
        case .found(let bytes, _), .objectJSON(let bytes):
            return .json(bytes: bytes)
        case .batch(let results):
            return .json(.array(results.map { element(of: $0, context: context) }))
        default:
            return .json(body(result, context: context))
        }
    }

    /// The JSON body of `result`, as REST answers it and as a batch element carries it under `success`.
    package static func body(_ result: OperationResult, context: AppContext) -> JSONValue {
        switch result {
        case .created(let object):
            return ["createdAt": .string(context.renderer.date(object.createdAt)), "objectId": .string(object.objectId)]
        case .signedUp(let login):
            return [
                "createdAt": .string(context.renderer.date(login.user.createdAt)),
                "objectId": .string(login.user.objectId), "sessionToken": .string(login.sessionToken),
            ]
        case .loggedIn(let login, _):
            return rendered(login, context)
        case .updated(let object):
            return ["updatedAt": .string(context.renderer.date(object.updatedAt))]
        case .done:
            return ["msg": "ok"]
        case .object(let value), .document(let value):
            return value
        case .found(let bytes, _):
            return (try? JSONParser.parse(bytes)) ?? ["results": []]
        case .objectJSON(let bytes):
            return (try? JSONParser.parse(bytes)) ?? [:]
        case .batch(let results):
            return .array(results.map { element(of: $0, context: context) })
        case .sessionCheck(let valid):
            return ["msg": .string(valid ? "ok" : "fail")]
        case .sessions(let list):
            return ["results": .array(list)]
        case .smsSent(let smsId):
            return ["smsId": .int(smsId)]
        case .timestamp(let seconds, let datetime):
            return ["timestamp": .int(seconds), "datetime": .string(datetime)]
        case .functionResult(let value):
            return ["result": value]
        }
    }

    /// A logged-in user as Bmob answers login: every field the user may see of itself (never the password; of
    /// `authData` only the linked ids) plus `sessionToken`.
    package static func rendered(_ login: UserService.Login, _ context: AppContext) -> JSONValue {
        var members = context.renderer(for: .grantees(["*", login.user.objectId])).render(login.user)
        members["sessionToken"] = .string(login.sessionToken)
        return .object(members)
    }

    /// `{"success":…}` or `{"error":{"code","error"}}`.
    static func element(of result: Result<OperationResult, BmobAPIError>, context: AppContext) -> JSONValue {
        switch result {
        case .success(let value):
            return ["success": body(value, context: context)]
        case .failure(let error):
            return ["error": ["code": .int(Int64(error.code.rawValue)), "error": .string(error.message)]]
        }
    }

    /// The `Location` of a created object: on the configured public URL, else a path relative to the request
    /// (never built from the request's `Host` header, which the client chooses). Users and roles have their
    /// own paths.
    static func location(className: String, objectId: String, server: ServerContext) -> String {
        let base = server.configuredPublicURL ?? ""
        switch className {
        case UserService.className: return joined([base, "/1/users/", objectId])
        case RoleService.className: return joined([base, "/1/roles/", objectId])
        default: return joined([base, "/1/classes/", className, "/", objectId])
        }
    }

    /// The pieces in one string, copied into one allocation: `+` grows the string piece by piece.
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
