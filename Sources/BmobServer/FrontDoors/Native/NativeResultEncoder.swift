package import BmobWire

/// The native door's one encoder: an ``OperationResult`` as the `data` of the `/8/` envelope. It differs from
/// REST where the vendor SDKs read differently: signups answer the whole user, a count without rows is
/// `{"count":n}`, the time carries `S`; batch elements carry the REST bodies.
package enum NativeResultEncoder {
    /// The JSON text of the envelope's `data`.
    package static func data(_ result: OperationResult, context: AppContext) -> [UInt8] {
        switch result {
        case .signedUp(let login), .loggedIn(let login, _):
            return RESTResultEncoder.rendered(login, context).jsonBytes
        case .objectJSON(let bytes):
            return bytes
        case .found(let bytes, let countOnly):
            guard countOnly, let count = (try? JSONParser.parse(bytes))?["count"] else { return bytes }
            return JSONValue.object(["count": count]).jsonBytes
        case .batch:
            return JSONValue.object(["results": RESTResultEncoder.body(result, context: context)]).jsonBytes
        case .timestamp(let seconds, let datetime):
            return JSONValue.object(["timestamp": .int(seconds), "datetime": .string(datetime), "S": .int(seconds)])
                .jsonBytes
        case .functionResult(let value):
            return JSONValue.object(["results": value]).jsonBytes
        default:
            return RESTResultEncoder.body(result, context: context).jsonBytes
        }
    }

    /// Members the envelope carries beside `data`: a batch's results again as top-level `results`, where
    /// Bmob's official Swift SDK (1.0.x) reads them (it reads `data` as the array, or a top-level `results`),
    /// while this project's SDK reads `data.results`.
    package static func extraMembers(_ result: OperationResult, context: AppContext) -> [String: JSONValue] {
        guard case .batch = result else { return [:] }
        return ["results": RESTResultEncoder.body(result, context: context)]
    }
}
