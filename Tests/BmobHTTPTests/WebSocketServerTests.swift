import BmobHTTP
import BmobIO
import BmobTesting
import BmobWire
import Foundation
import Testing

/// The server side of RFC 6455 after an upgrade, over loopback: frames in, frames out. Pings, pong and close
/// timeouts run on a manual clock that the tests advance.
@Suite struct WebSocketServerTests {
    /// The time of the test's server.
    let clock = ManualClock()

    private func withServer(
        _ kind: SelectorKind = .platformDefault,
        _ body: (HTTPServer, WebSocketEventLog) async throws -> Void
    ) async throws {
        let responder = TestResponder()
        let configuration = HTTPServerConfiguration(
            host: "127.0.0.1", port: 0, loopCount: 2, selectorKind: kind, clock: .manual(clock))
        let server = try await HTTPServer.start(configuration: configuration, responder: responder)
        do {
            try await body(server, responder.webSocketEvents)
        } catch {
            await server.shutdown()
            throw error
        }
        await server.shutdown()
    }

    private func open(_ server: HTTPServer, _ path: String = "/ws") async throws -> TestWebSocket {
        try await TestWebSocket.connect(port: Int(server.localAddress.port), path: path)
    }

    private static func close(_ code: UInt16, _ reason: String = "") -> WebSocketFrame {
        WebSocketFrame.close(code: WebSocketCloseCode(rawValue: code), reason: reason)
    }

    @Test(arguments: [SelectorKind.epoll, .poll])
    func upgradeThenEchoTextAndBinary(kind: SelectorKind) async throws {
        try await withServer(kind) { server, log in
            let socket = try await open(server)
            #expect(socket.handshake.status == 101)
            #expect(socket.handshake.headers["Upgrade"]?.lowercased() == "websocket")
            #expect(socket.handshake.headers["Connection"]?.lowercased() == "upgrade")
            #expect(socket.handshake.headers["Content-Length"] == nil)
            try await socket.send(text: "hello, 世界")
            #expect(try await socket.nextText() == "hello, 世界")
            try await socket.send(WebSocketFrame(opcode: .binary, payload: [0, 1, 2, 255]))
            let binary = try await socket.nextFrame()
            #expect(binary?.opcode == .binary)
            #expect(binary?.payload == [0, 1, 2, 255])
            #expect(binary?.maskingKey == nil)
            #expect(await log.waitFor { $0 == .opened } != nil)
        }
    }

    @Test func framesSentRightBehindTheUpgradeRequestAreDecoded() async throws {
        try await withServer { server, _ in
            let connection = try RawHTTPConnection(port: Int(server.localAddress.port))
            var frame = WebSocketFrame(opcode: .text, payload: Array("early".utf8))
            frame.maskingKey = WebSocketMaskingKey([1, 2, 3, 4])
            let request = "GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
            try await connection.send(Array(request.utf8) + frame.encoded())
            let response = try await connection.readResponse(interim: true)
            #expect(response.status == 101)
            #expect(response.headers["Sec-WebSocket-Accept"] == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
            var decoder = WebSocketFrameDecoder(role: .client)
            decoder.append(try await connection.receiveBuffered())
            var echo = try decoder.next()
            while echo == nil {
                let bytes = try await connection.receive()
                #expect(!bytes.isEmpty)
                if bytes.isEmpty { return }
                decoder.append(bytes)
                echo = try decoder.next()
            }
            #expect(echo?.opcode == .text)
            #expect(echo?.payload == Array("early".utf8))
        }
    }

    @Test func fragmentsAreReassembledAndPingsAnsweredBetweenThem() async throws {
        try await withServer { server, _ in
            let socket = try await open(server)
            try await socket.send(WebSocketFrame(fin: false, opcode: .text, payload: Array("Hel".utf8)))
            try await socket.send(WebSocketFrame(opcode: .ping, payload: Array("p".utf8)))
            try await socket.send(WebSocketFrame(fin: false, opcode: .continuation, payload: Array("l".utf8)))
            try await socket.send(WebSocketFrame(opcode: .continuation, payload: Array("o".utf8)))
            let pong = try await socket.nextFrame()
            #expect(pong?.opcode == .pong)
            #expect(pong?.payload == Array("p".utf8))
            #expect(try await socket.nextText() == "Hello")
        }
    }

    @Test func clientStartedCloseIsAnsweredAndTheServerClosesTCP() async throws {
        try await withServer { server, log in
            let socket = try await open(server)
            try await socket.send(Self.close(1000, "done"))
            #expect(try await socket.nextClose() == .normalClosure)
            #expect(try await socket.nextFrame() == nil)
            // The server closed TCP first and lingers until the client closes its side, as clients do.
            socket.connection.shutdownWrite()
            #expect(await log.waitFor { $0 == .closed(.normalClosure) } != nil)
            #expect(server.connectionCount == 0)
        }
    }

    @Test func serverStartedCloseWaitsForTheClientsAnswer() async throws {
        try await withServer { server, log in
            // The patient route's close timeout is far longer than a loaded machine takes to answer.
            let socket = try await open(server, "/ws-patient")
            try await socket.send(text: "close-please")
            #expect(try await socket.nextClose() == .normalClosure)
            try await socket.send(Self.close(1000))
            #expect(try await socket.nextFrame() == nil)
            // The server closed TCP first and lingers until the client closes its side, as clients do.
            socket.connection.shutdownWrite()
            #expect(await log.waitFor { $0 == .closed(.normalClosure) } != nil)
        }
    }

    @Test func serverStartedCloseGivesUpAfterTheCloseTimeout() async throws {
        try await withServer { server, log in
            let socket = try await open(server)
            try await socket.send(text: "close-please")
            #expect(try await socket.nextClose() == .normalClosure)
            // No answer: the connection ends after the 1 s close timeout.
            await clock.advance(by: .milliseconds(999))
            #expect(server.connectionCount == 1)
            await clock.advance(by: .milliseconds(1))
            #expect(try await socket.nextFrame() == nil)
            #expect(await log.waitFor { $0 == .closed(nil) } != nil)
        }
    }

    @Test(arguments: [
        ("unmasked frame", 1002),
        ("reserved bit", 1002),
        ("invalid UTF-8", 1007),
        ("message over the limit", 1009),
        ("fragmented ping", 1002),
        ("unknown opcode", 1002),
    ])
    func protocolViolationsCloseWithTheirCode(violation: String, code: Int) async throws {
        try await withServer { server, log in
            let socket = try await open(server)
            switch violation {
            case "unmasked frame":
                try await socket.send(WebSocketFrame(opcode: .text, payload: Array("x".utf8)), masked: false)
            case "reserved bit":
                try await socket.send(WebSocketFrame(rsv2: true, opcode: .text, payload: Array("x".utf8)))
            case "invalid UTF-8":
                try await socket.send(WebSocketFrame(opcode: .text, payload: [0x68, 0xC3, 0x28]))
            case "message over the limit":
                try await socket.send(WebSocketFrame(fin: false, opcode: .text, payload: Array(repeating: 0x61, count: 800)))
                try await socket.send(WebSocketFrame(opcode: .continuation, payload: Array(repeating: 0x61, count: 800)))
            case "fragmented ping":
                try await socket.send(WebSocketFrame(fin: false, opcode: .ping))
            default:
                // Opcode 0x3 is reserved: first byte FIN|3, masked, empty payload.
                try await socket.send(raw: [0x83, 0x80, 1, 2, 3, 4])
            }
            #expect(try await socket.nextClose() == WebSocketCloseCode(rawValue: UInt16(code)))
            #expect(try await socket.nextFrame() == nil)
            // The server closed TCP first; this client never closes its side, so the server gives up lingering
            // after 2 s.
            await clock.advance(by: .milliseconds(1999))
            #expect(server.connectionCount == 1)
            await clock.advance(by: .milliseconds(1))
            #expect(await log.waitFor { if case .closed = $0 { true } else { false } } != nil)
            #expect(server.connectionCount == 0)
        }
    }

    @Test func invalidUpgradesAreRefusedWithTheirStatus() async throws {
        try await withServer { server, _ in
            let port = Int(server.localAddress.port)
            let badKey = try RawHTTPConnection(port: port)
            try await badKey.send(
                "GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: short\r\nSec-WebSocket-Version: 13\r\n\r\n")
            #expect(try await badKey.readResponse().status == 400)
            let oldVersion = try RawHTTPConnection(port: port)
            try await oldVersion.send(
                "GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 8\r\n\r\n")
            let refused = try await oldVersion.readResponse()
            #expect(refused.status == 426)
            #expect(refused.headers["Sec-WebSocket-Version"] == "13")
            // Not an upgrade at all: a plain request to the route keeps HTTP.
            let plain = try RawHTTPConnection(port: port)
            try await plain.send(HTTPRequestText.make("GET", "/ws"))
            #expect(try await plain.readResponse().status == 400)
            try await plain.send(HTTPRequestText.make("GET", "/hello"))
            #expect(try await plain.readResponse().text == "hello")
        }
    }

    @Test func aSlowReaderIsClosedInsteadOfGrowingTheQueue() async throws {
        try await withServer { server, log in
            let socket = try await open(server, "/ws-patient")
            // 64 MiB asked for; the client reads nothing meanwhile, so the kernel buffers fill and the server's
            // 256 KiB queue limit trips.
            try await socket.send(text: "flood 1000")
            let flooded = await log.waitFor { if case .flooded = $0 { true } else { false } }
            guard case .flooded(let sent, let queued) = flooded else {
                Issue.record("the handler never finished flooding")
                return
            }
            #expect(sent < 1000)
            #expect(queued <= 256 * 1024 + 64)
            // Reading now drains what was queued, then the 1008 close frame.
            #expect(try await socket.nextClose() == .policyViolation)
        }
    }

    @Test func idleConnectionsArePingedAndDroppedWhenThePongNeverComes() async throws {
        try await withServer { server, log in
            // Pings after 300 ms of silence; the strict route allows 700 ms for an answer.
            let answering = try await open(server, "/ws-ping")
            let silent = try await open(server, "/ws-strict-ping")
            // The answering client gets a ping after each silence and stays connected.
            for _ in 0..<3 {
                await clock.advance(by: .milliseconds(300))
                let frame = try await answering.nextFrame()
                #expect(frame?.opcode == .ping)
                try await answering.send(WebSocketFrame(opcode: .pong, payload: frame?.payload ?? []))
            }
            try await answering.send(text: "still here")
            #expect(try await answering.nextText() == "still here")
            // The silent one got its ping, and is dropped 700 ms after it, without a close handshake.
            #expect(try await silent.nextFrame()?.opcode == .ping)
            #expect(server.connectionCount == 2)
            await clock.advance(by: .milliseconds(100))
            #expect(try await silent.nextFrame() == nil)
            #expect(await log.waitFor { $0 == .closed(nil) } != nil)
            #expect(server.connectionCount == 1)
        }
    }

    @Test func shutdownClosesWebSocketsWithGoingAway() async throws {
        let responder = TestResponder()
        let configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0, loopCount: 1, clock: .manual(clock))
        let server = try await HTTPServer.start(configuration: configuration, responder: responder)
        let socket = try await TestWebSocket.connect(port: Int(server.localAddress.port), path: "/ws")
        try await socket.send(text: "ready?")
        #expect(try await socket.nextText() == "ready?")
        async let stopped: Void = server.shutdown()
        #expect(try await socket.nextClose() == .goingAway)
        try await socket.send(Self.close(1001))
        #expect(try await socket.nextFrame() == nil)
        // The server closed TCP first and lingers until the client closes its side, as clients do.
        socket.connection.shutdownWrite()
        await stopped
        #expect(server.connectionCount == 0)
    }
}
