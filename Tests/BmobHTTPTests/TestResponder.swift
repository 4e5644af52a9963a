import BmobHTTP
import BmobIO
import BmobWire
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A small responder exercising the server: echo, slow answers, big answers, per-route limits, failures.
struct TestResponder: HTTPResponder {
    struct Boom: Error {}

    enum Endpoint: Int {
        case hello, echo, small, slow, thread, big, boom, webSocket, webSocketPing, webSocketPatient, webSocketStrictPing
    }

    /// Counts what WebSocket handlers saw, across loops.
    let webSocketEvents = WebSocketEventLog()

    let router: Router = {
        var router = Router()
        router.add(.get, "/hello")
        router.add(.post, "/echo")
        router.add(.post, "/small", bodyLimit: 10)
        router.add(.get, "/slow/:milliseconds")
        router.add(.get, "/thread")
        router.add(.get, "/big/:bytes")
        router.add(.get, "/boom")
        router.add(.get, "/ws")
        router.add(.get, "/ws-ping")
        router.add(.get, "/ws-patient")
        router.add(.get, "/ws-strict-ping")
        return router
    }()

    func bodyLimit(for head: HTTPRequestHead) -> Int? {
        if case .found(let route, _) = router.match(head.method, path: head.path) { return route.bodyLimit }
        return nil
    }

    func respond(to request: HTTPRequest) async throws -> HTTPResponse {
        switch router.match(request.method, path: request.path) {
        case .notFound:
            return .text("not found", status: .notFound)
        case .methodNotAllowed:
            return .text("method not allowed", status: .methodNotAllowed)
        case .found(let route, let parameters):
            switch Endpoint(rawValue: route.index)! {
            case .hello:
                return HTTPResponse(status: .ok, headers: ["X-Test": "yes"], body: Array("hello".utf8))
            case .echo, .small:
                return HTTPResponse(status: .ok, body: request.body)
            case .slow:
                try await Task.sleep(for: .milliseconds(Int(parameters["milliseconds"]!)!))
                return .text("slow")
            case .thread:
                return .text(String(UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(bitPattern: UInt(pthread_self()))))))
            case .big:
                let count = Int(parameters["bytes"]!)!
                return HTTPResponse(status: .ok, body: (0..<count).map { UInt8(truncatingIfNeeded: $0 % 251) })
            case .boom:
                throw Boom()
            case .webSocket, .webSocketPing, .webSocketPatient, .webSocketStrictPing:
                let configuration: WebSocketConfiguration
                switch Endpoint(rawValue: route.index)! {
                case .webSocket:
                    configuration = WebSocketConfiguration(maximumMessageSize: 1024, maximumQueuedBytes: 256 * 1024, closeTimeout: .seconds(1))
                case .webSocketPing:
                    // A pong timeout no loaded test machine misses: this route checks that answering keeps it open.
                    configuration = WebSocketConfiguration(pingInterval: .milliseconds(300), pongTimeout: .seconds(20))
                case .webSocketStrictPing:
                    configuration = WebSocketConfiguration(pingInterval: .milliseconds(300), pongTimeout: .milliseconds(700))
                default:
                    configuration = WebSocketConfiguration(maximumQueuedBytes: 256 * 1024, closeTimeout: .seconds(30))
                }
                let log = webSocketEvents
                do {
                    return try HTTPResponse.webSocket(accepting: request.head, configuration: configuration) {
                        EchoWebSocketHandler(log: log)
                    }
                } catch {
                    return HTTPResponse(status: error.response.status, headers: error.response.headers, body: Array(error.description.utf8))
                }
            }
        }
    }
}
