import BmobServer
import Foundation
import BmobWire
import Synchronization

/// The cloud functions the seed's 云函数 samples call, registered on the shared test server, and what they
/// received.
enum CloudFunctionFixture {
    /// The parameters each call of a recording function received, by function name, in order.
    static let received = Mutex<[String: [[String: JSONValue]]]>([:])

    /// The calls `function` received so far.
    static func calls(of function: String) -> [[String: JSONValue]] {
        received.withLock { $0[function] ?? [] }
    }

    static var functions: CloudFunctions {
        var functions = CloudFunctions()
        // As most Bmob functions do, `hello` and `greet` answer text (`response.send(string)`), `greet` JSON text.
        functions.register("hello") { _ in "Hello from the cloud" }
        functions.register("greet") { request in
            guard case .string(let name)? = request.params["name"] else {
                throw CloudFunctionError(code: 400, message: "greet needs a name")
            }
            let answer: JSONValue = ["message": .string("Hello, \(name)!"), "code": 0]
            return .string(answer.jsonString)
        }
        for name in ["sendNotification", "updateScore"] {
            functions.register(name) { request in
                received.withLock { $0[name, default: []].append(request.params) }
                return "ok"
            }
        }
        // A JSON value, not text: both decode.
        functions.register("getUserList") { _ in
            let users: [JSONValue] = [
                ["objectId": "u1", "username": "alice", "createdAt": "2026-01-01 00:00:00"],
                ["objectId": "u2", "username": "bob", "createdAt": "2026-01-02 00:00:00"],
            ]
            return ["users": .array(users), "total": 2]
        }
        functions.register("helloWorld") { request in
            let name = request.params["name"]?.stringValue ?? "world"
            return ["message": .string("Hello, \(name)")]
        }
        functions.register("whoAmI") { request in
            ["userId": request.userId.map(JSONValue.string) ?? .null, "master": .bool(request.isMaster)]
        }
        functions.register("broken") { _ in
            struct Unexpected: Error {}
            throw Unexpected()
        }
        // Triggers on one class, which the SDK's saves and queries meet like any client's.
        functions.on(.beforeSave, className: "TriggeredNote") { request in
            guard case .string(let title)? = request.object?["title"], !title.isEmpty else {
                throw CloudFunctionError(code: 142, message: "a note needs a title")
            }
            return ["slug": .string(title.lowercased().replacingOccurrences(of: " ", with: "-"))]
        }
        functions.on(.beforeFind, className: "TriggeredNote") { _ in ["archived": ["$ne": true]] }
        return functions
    }
}
