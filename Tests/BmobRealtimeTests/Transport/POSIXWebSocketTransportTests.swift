#if canImport(Glibc) || canImport(Musl) || canImport(Android)
import BmobRealtime
import BmobWire
import Foundation
import Testing

/// The Linux WebSocket client against an independent server: the Python `websockets` library.
@Suite("POSIX WebSocket transport against Python websockets", .serialized, .timeLimit(.minutes(1)))
struct POSIXWebSocketTransportTests {
    private func open(
        _ peer: PythonPeer, _ path: String, headers: [HTTPField] = [], configuration: POSIXWebSocketTransport.Configuration = .init()
    ) async throws -> (POSIXWebSocketTransport, TransportRecorder) {
        let transport = POSIXWebSocketTransport(configuration: configuration)
        let recorder = TransportRecorder()
        let url = try #require(URL(string: "ws://127.0.0.1:\(peer.port)\(path)"))
        try await transport.connect(to: url, headers: headers, timeout: .seconds(20), onEvent: recorder.handler)
        return (transport, recorder)
    }

    @Test("text and binary messages both ways, including ones larger than a socket read")
    func textAndBinary() async throws {
        let peer = try await PythonPeer(script: "websocket_peer.py")
        defer { peer.stop() }
        let (transport, recorder) = try await open(peer, "/echo")
        transport.send(.text("hello ✓ 你好"))
        transport.send(.binary([0, 1, 2, 254, 255]))
        let large = String(repeating: "0123456789", count: 50_000)
        transport.send(.text(large))
        let messages = try await recorder.waitForMessages(3)
        #expect(messages[0] == .text("hello ✓ 你好"))
        #expect(messages[1] == .binary([0, 1, 2, 254, 255]))
        #expect(messages[2] == .text(large))
        transport.close(code: .normalClosure, reason: "")
        #expect(try await recorder.waitForClosure().isClean)

        let (bigTransport, bigRecorder) = try await open(peer, "/big")
        let big = try await bigRecorder.waitForMessages(2)
        #expect(big[0] == .text(String(repeating: "x", count: 300_000)))
        #expect(big[1] == .binary(Array((0..<1000).flatMap { _ in (0...255).map(UInt8.init) })))
        bigTransport.close(code: .normalClosure, reason: "")
        _ = try await bigRecorder.waitForClosure()
    }

    @Test("the request carries the path, query and extra headers such as Origin")
    func requestHeaders() async throws {
        let peer = try await PythonPeer(script: "websocket_peer.py")
        defer { peer.stop() }
        let (transport, recorder) = try await open(
            peer, "/headers?t=42", headers: [HTTPField(name: "Origin", value: "http://127.0.0.1:\(peer.port)")])
        guard case .text(let text) = try await recorder.waitForMessages(1)[0] else {
            Issue.record("expected a text message")
            return
        }
        let report = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let headers = try #require(report["headers"] as? [String: String])
        #expect(report["path"] as? String == "/headers?t=42")
        #expect(headers["origin"] == "http://127.0.0.1:\(peer.port)")
        #expect(headers["host"] == "127.0.0.1:\(peer.port)")
        #expect(headers["sec-websocket-version"] == "13")
        transport.close(code: .normalClosure, reason: "")
        _ = try await recorder.waitForClosure()
    }

    @Test("fragmented messages: reassembled when received, split into frames when sent")
    func fragments() async throws {
        let peer = try await PythonPeer(script: "websocket_peer.py")
        defer { peer.stop() }
        var configuration = POSIXWebSocketTransport.Configuration()
        configuration.outgoingFragmentSize = 4
        let (transport, recorder) = try await open(peer, "/fragments", configuration: configuration)
        let received = try await recorder.waitForMessages(2)
        #expect(received[0] == .text("fragmented text ✓"))
        #expect(received[1] == .binary([0, 1, 2, 3, 4]))

        transport.send(.text("abcdefghij"))
        transport.send(.binary([9, 8, 7, 6, 5, 4, 3, 2, 1]))
        let reports = try await recorder.waitForMessages(4)
        let text = try Self.json(reports[2])
        #expect(text["kind"] as? String == "text")
        #expect(text["fragments"] as? Int == 3)
        #expect(text["content"] as? String == "abcdefghij")
        let binary = try Self.json(reports[3])
        #expect(binary["kind"] as? String == "binary")
        #expect(binary["fragments"] as? Int == 3)
        #expect(binary["content"] as? String == "090807060504030201")
        transport.close(code: .normalClosure, reason: "")
        _ = try await recorder.waitForClosure()
    }

    @Test("a ping from the server is answered with a pong")
    func ping() async throws {
        let peer = try await PythonPeer(script: "websocket_peer.py")
        defer { peer.stop() }
        let (transport, recorder) = try await open(peer, "/ping")
        #expect(try await recorder.waitForMessages(1)[0] == .text("pong received"))
        transport.close(code: .normalClosure, reason: "")
        _ = try await recorder.waitForClosure()
    }

    @Test("closing handshake started by the client: the server gets our code, we get its echo")
    func clientCloses() async throws {
        let peer = try await PythonPeer(script: "websocket_peer.py")
        defer { peer.stop() }
        let (transport, recorder) = try await open(peer, "/echo")
        transport.send(.text("before"))
        _ = try await recorder.waitForMessages(1)
        transport.close(code: WebSocketCloseCode(rawValue: 4002), reason: "client done")
        transport.send(.text("after close is dropped"))
        let closure = try await recorder.waitForClosure()
        #expect(closure.isClean)
        #expect(closure.code.rawValue == 4002)
        #expect(try await peer.line(prefix: "CLOSED /echo") == "CLOSED /echo 4002 client done")
        #expect(recorder.messages.count == 1)

        let (normal, normalRecorder) = try await open(peer, "/echo")
        normal.close(code: .normalClosure, reason: "")
        #expect(try await normalRecorder.waitForClosure().code == .normalClosure)
        #expect(try await peer.line(prefix: "CLOSED /echo") == "CLOSED /echo 1000 -")
        try await Task.sleep(for: .milliseconds(100))
        #expect(normalRecorder.closureCount == 1)
    }

    @Test("closing handshake started by the server: we echo its code and report it")
    func serverCloses() async throws {
        let peer = try await PythonPeer(script: "websocket_peer.py")
        defer { peer.stop() }
        let (_, recorder) = try await open(peer, "/close-by-server")
        let closure = try await recorder.waitForClosure()
        #expect(recorder.messages == [.text("closing")])
        #expect(closure.isClean)
        #expect(closure.code.rawValue == 4001)
        #expect(closure.reason == "server says bye")
        // The server received our echo of its code.
        #expect(try await peer.line(prefix: "CLOSED /close-by-server") == "CLOSED /close-by-server 4001 -")
    }

    @Test(
        "a server that breaks the protocol is failed with the right close code",
        arguments: [
            ("/masked", WebSocketCloseCode.protocolError),
            ("/reserved", .protocolError),
            ("/bad-utf8", .invalidPayloadData),
            ("/big-control", .protocolError),
        ])
    func badFrames(path: String, code: WebSocketCloseCode) async throws {
        let peer = try await PythonPeer(script: "raw_websocket_peer.py")
        defer { peer.stop() }
        let (_, recorder) = try await open(peer, path)
        let closure = try await recorder.waitForClosure()
        #expect(closure.code == code)
        #expect(closure.error?.code == .protocolViolation)
        #expect(recorder.messages.isEmpty)
        #expect(try await peer.line(prefix: "CLOSE \(path)") == "CLOSE \(path) \(code.rawValue)")
    }

    @Test("a connection dropped without a close frame ends with 1006")
    func dropped() async throws {
        let peer = try await PythonPeer(script: "raw_websocket_peer.py")
        defer { peer.stop() }
        let (_, recorder) = try await open(peer, "/drop")
        let closure = try await recorder.waitForClosure()
        #expect(recorder.messages == [.text("hi")])
        #expect(closure.code == .abnormalClosure)
        #expect(closure.error?.code == .connectionLost)
    }

    @Test("opening fails clearly: refused upgrade, wrong accept, no server, silent server, bad URL")
    func openingFailures() async throws {
        let peer = try await PythonPeer(script: "raw_websocket_peer.py")
        defer { peer.stop() }
        let recorder = TransportRecorder()
        func failure(_ url: String, timeout: RealtimeDuration = .seconds(20)) async -> WebSocketTransportError? {
            do {
                try await POSIXWebSocketTransport().connect(
                    to: URL(string: url)!, headers: [], timeout: timeout, onEvent: recorder.handler)
                return nil
            } catch {
                return error as? WebSocketTransportError
            }
        }
        let refused = await failure("ws://127.0.0.1:\(peer.port)/no-upgrade")
        #expect(refused?.code == .handshakeRejected)
        #expect(refused?.httpStatus == 403)
        #expect(await failure("ws://127.0.0.1:\(peer.port)/bad-accept")?.code == .handshakeRejected)
        #expect(await failure("ws://127.0.0.1:\(peer.port)/silent", timeout: .milliseconds(300))?.code == .timedOut)
        #expect(await failure("ws://127.0.0.1:1/")?.code == .connectionFailed)
        #expect(await failure("http://127.0.0.1:\(peer.port)/")?.code == .invalidURL)
        #expect(await failure("ws://no-such-host.invalid/")?.code == .resolutionFailed)
        #expect(recorder.closure == nil && recorder.messages.isEmpty)
    }

    @Test("close() while the opening handshake waits abandons it at once")
    func closeWhileOpening() async throws {
        let peer = try await PythonPeer(script: "raw_websocket_peer.py")
        defer { peer.stop() }
        let transport = POSIXWebSocketTransport()
        let started = ContinuousClock.now
        let attempt = Task {
            try await transport.connect(
                to: URL(string: "ws://127.0.0.1:\(peer.port)/silent")!, headers: [], timeout: .seconds(20),
                onEvent: TransportRecorder().handler)
        }
        try await Task.sleep(for: .milliseconds(200))
        transport.close(code: .normalClosure, reason: "")
        await #expect {
            try await attempt.value
        } throws: { error in
            (error as? WebSocketTransportError)?.code == .cancelled
        }
        #expect(ContinuousClock.now - started < .seconds(15))  // well before the 20 s connect timeout
        _ = try await peer.line(prefix: "GAVEUP /silent")
    }

    private static func json(_ message: WebSocketMessage) throws -> [String: Any] {
        guard case .text(let text) = message,
            let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        else { throw PeerError("expected a JSON text message, got \(message)") }
        return object
    }
}
#endif
