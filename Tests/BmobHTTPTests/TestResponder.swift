import BmobHTTP
import BmobIO
import BmobWire
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A small responder exercising the server: echo, answers held at a gate, big answers, per-route limits,
/// failures, WebSockets, and streamed uploads, downloads and files.
struct TestResponder: HTTPResponder {
    struct Boom: Error {}

    enum Endpoint: Int {
        case hello, echo, small, gate, thread, big, boom
        case webSocket, webSocketPing, webSocketPatient, webSocketStrictPing
        case upload, uploadGated, uploadSmall, download, downloadLength, file
    }

    /// Counts what WebSocket handlers saw, across loops.
    let webSocketEvents = WebSocketEventLog()
    /// What streaming handlers saw.
    let streamEvents = StreamEventLog()
    /// Where `/gate/:name` and `/upload-gated/:name` wait.
    let gates = TestGates()
    /// The file `/file` serves.
    let filePath: String?

    init(filePath: String? = nil) {
        self.filePath = filePath
    }

    /// Streamed bodies follow this pattern: the byte at offset `i` is `i % 251`. A block of it is a whole number
    /// of periods, so repeating the block continues the pattern.
    static let patternBlock: [UInt8] = (0..<(251 * 256)).map { UInt8($0 % 251) }

    /// Reads blocking files for `/file`.
    static let filePool = ThreadPool(threadCount: 2, name: "test-files")

    let router: Router = {
        var router = Router()
        router.add(.get, "/hello")
        router.add(.post, "/echo")
        router.add(.post, "/small", bodyLimit: 10)
        router.add(.get, "/gate/:name")
        router.add(.get, "/thread")
        router.add(.get, "/big/:bytes")
        router.add(.get, "/boom")
        router.add(.get, "/ws")
        router.add(.get, "/ws-ping")
        router.add(.get, "/ws-patient")
        router.add(.get, "/ws-strict-ping")
        router.add(.post, "/upload", bodyLimit: 1 << 30, streamsBody: true)
        router.add(.post, "/upload-gated/:name", bodyLimit: 1 << 30, streamsBody: true)
        router.add(.post, "/upload-small", bodyLimit: 1000, streamsBody: true)
        router.add(.get, "/download/:bytes")
        router.add(.get, "/download-length/:bytes")
        router.add(.get, "/file")
        return router
    }()

    func bodyPolicy(for head: HTTPRequestHead) -> HTTPRequestBodyPolicy {
        if case .found(let route, _) = router.match(head.method, path: head.path) { return router.bodyPolicy(route) }
        return .standard
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
            case .gate:
                await gates.wait(parameters["name"]!)
                return .text("slow")
            case .thread:
                return .text(String(UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(bitPattern: UInt(pthread_self()))))))
            case .big:
                let count = Int(parameters["bytes"]!)!
                return HTTPResponse(status: .ok, body: (0..<count).map { UInt8(truncatingIfNeeded: $0 % 251) })
            case .boom:
                throw Boom()
            case .upload, .uploadGated, .uploadSmall:
                if let gate = parameters["name"] { await gates.wait(gate) }
                return try await receiveUpload(request.bodyStream!)
            case .download, .downloadLength:
                let total = Int(parameters["bytes"]!)!
                let length = Endpoint(rawValue: route.index)! == .download ? nil : total
                let events = streamEvents
                return .streaming(headers: ["Content-Type": "application/octet-stream"], length: length) { writer in
                    var written = 0
                    do {
                        let block = Self.patternBlock
                        while written < total {
                            let count = min(block.count, total - written)
                            try await writer.write(count == block.count ? block : Array(block[..<count]))
                            written += count
                        }
                    } catch let error as HTTPStreamError {
                        events.record(.downloadFailed(error.code, written: written))
                        throw error
                    }
                    events.record(.downloadFinished(written))
                }
            case .file:
                let file = try await HTTPFile.open(atPath: filePath!, pool: Self.filePool)
                return .file(file, for: request.head, contentType: "application/octet-stream")
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

extension TestResponder {
    /// Reads a streamed upload and answers `<bytes> <bytes off the pattern>`.
    private func receiveUpload(_ body: HTTPRequestBodyStream) async throws -> HTTPResponse {
        var count = 0
        var mismatches = 0
        var expected: UInt8 = 0
        do {
            for try await chunk in body {
                chunk.withUnsafeBufferPointer { bytes in
                    for byte in bytes {
                        if byte != expected { mismatches += 1 }
                        expected = expected == 250 ? 0 : expected + 1
                    }
                }
                count += chunk.count
            }
        } catch let error as HTTPStreamError {
            streamEvents.record(.uploadFailed(error.code))
            throw error
        }
        return .text("\(count) \(mismatches)")
    }
}
