import BmobHTTP
import BmobIO
import BmobTesting
import BmobWire
import Foundation
import Synchronization
import Testing

/// Streamed request and response bodies through real sockets: large bodies in bounded memory, backpressure,
/// clients that give up, ranges, and the limits and timeouts of streamed bodies.
@Suite struct HTTPStreamingTests {
    static let mebibyte = 1 << 20
    /// What one connection may hold for a streamed body, whatever its size.
    static let memoryBound = Self.mebibyte
    let clock = ManualClock()

    private func withServer(
        _ responder: TestResponder = TestResponder(),
        configure: (inout HTTPServerConfiguration) -> Void = { _ in },
        _ body: (HTTPServer, TestResponder) async throws -> Void
    ) async throws {
        var configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0, loopCount: 2, clock: .manual(clock))
        configure(&configuration)
        let server = try await HTTPServer.start(configuration: configuration, responder: responder)
        do {
            try await body(server, responder)
        } catch {
            responder.gates.openAll()
            await server.shutdown()
            throw error
        }
        responder.gates.openAll()
        await server.shutdown()
    }

    private func connect(_ server: HTTPServer) throws -> RawHTTPConnection {
        try RawHTTPConnection(port: Int(server.localAddress.port), timeout: 60)
    }

    /// Waits (checking every 5 ms, up to 20 s) until `condition` holds.
    private func eventually(_ condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now.advanced(by: .seconds(20))
        while !condition() {
            guard ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return true
    }

    private func uploadHead(_ path: String, length: Int?, expectContinue: Bool = false) -> String {
        var head = "POST \(path) HTTP/1.1\r\nHost: x\r\n"
        head += length.map { "Content-Length: \($0)\r\n" } ?? "Transfer-Encoding: chunked\r\n"
        if expectContinue { head += "Expect: 100-continue\r\n" }
        return head + "\r\n"
    }

    /// Counts a streamed body's bytes and those off the test pattern (byte `i` is `i % 251`).
    private final class PatternCheck: Sendable {
        private let state = Mutex((count: 0, mismatches: 0))

        func consume(_ bytes: ArraySlice<UInt8>) {
            state.withLock { state in
                var expected = UInt8(state.count % 251)
                for byte in bytes {
                    if byte != expected { state.mismatches += 1 }
                    expected = expected == 250 ? 0 : expected + 1
                }
                state.count += bytes.count
            }
        }

        var count: Int { state.withLock { $0.count } }
        var mismatches: Int { state.withLock { $0.mismatches } }
    }

    // MARK: - Uploads

    @Test func aHundredMebibyteUploadStreamsThroughBoundedMemory() async throws {
        try await withServer { server, _ in
            let total = 100 * Self.mebibyte
            let connection = try connect(server)
            try await connection.send(uploadHead("/upload", length: total))
            async let sent: Void = connection.send(repeating: TestResponder.patternBlock, count: total)
            let response = try await connection.readResponse()
            try await sent
            #expect(response.status == 200)
            #expect(response.text == "\(total) 0")
            #expect(server.peakStreamedBufferBytes > 0)
            #expect(server.peakStreamedBufferBytes <= Self.memoryBound)
            // The connection is kept for the next request.
            try await connection.send(HTTPRequestText.make("GET", "/hello"))
            #expect(try await connection.readResponse().text == "hello")
        }
    }

    @Test func aChunkedUploadStreamsToo() async throws {
        try await withServer { server, _ in
            let block = TestResponder.patternBlock
            let chunks = 64
            let connection = try connect(server)
            try await connection.send(uploadHead("/upload", length: nil))
            async let sent: Void = sendChunked(block, times: chunks, on: connection)
            let response = try await connection.readResponse()
            try await sent
            #expect(response.text == "\(block.count * chunks) 0")
            #expect(server.peakStreamedBufferBytes <= Self.memoryBound)
        }
    }

    /// Sends `block` as `times` chunks of a chunked body, then the last chunk.
    private func sendChunked(_ block: [UInt8], times: Int, on connection: RawHTTPConnection) async throws {
        let chunk = Array(String(block.count, radix: 16).utf8) + Array("\r\n".utf8) + block + Array("\r\n".utf8)
        try await connection.send(repeating: chunk, count: chunk.count * times)
        try await connection.send("0\r\n\r\n")
    }

    @Test func aSlowHandlerPausesReadingInsteadOfBufferingTheBody() async throws {
        try await withServer { server, responder in
            let total = 32 * Self.mebibyte
            let connection = try connect(server)
            try await connection.send(uploadHead("/upload-gated/slow", length: total))
            async let sent: Void = connection.send(repeating: TestResponder.patternBlock, count: total)
            // The handler takes nothing until the gate opens: reading pauses at the stream's bound.
            #expect(await eventually { server.streamedBodyPauses >= 1 })
            #expect(server.peakStreamedBufferBytes <= Self.memoryBound)
            responder.gates.open("slow")
            let response = try await connection.readResponse()
            try await sent
            #expect(response.text == "\(total) 0")
            #expect(server.peakStreamedBufferBytes <= Self.memoryBound)
        }
    }

    @Test func aPausedUploadDoesNotTimeOutWhileItsHandlerIsBehind() async throws {
        try await withServer(configure: { $0.bodyTimeout = .seconds(30) }) { server, responder in
            let total = 4 * Self.mebibyte
            let connection = try connect(server)
            try await connection.send(uploadHead("/upload-gated/behind", length: total))
            async let sent: Void = connection.send(repeating: TestResponder.patternBlock, count: total)
            #expect(await eventually { server.streamedBodyPauses >= 1 })
            await clock.advance(by: .seconds(120))
            #expect(server.connectionCount == 1)
            responder.gates.open("behind")
            #expect(try await connection.readResponse().text == "\(total) 0")
            try await sent
        }
    }

    @Test func expectContinueWorksOnAStreamedRoute() async throws {
        try await withServer { server, _ in
            let connection = try connect(server)
            try await connection.send(uploadHead("/upload", length: 1000, expectContinue: true))
            #expect(try await connection.readResponse(interim: true).status == 100)
            try await connection.send(Array(TestResponder.patternBlock[..<1000]))
            #expect(try await connection.readResponse().text == "1000 0")
        }
    }

    @Test func aClientThatStopsSendingMidBodyFailsTheHandlersStream() async throws {
        try await withServer { server, responder in
            let connection = try connect(server)
            try await connection.send(uploadHead("/upload", length: 10 * Self.mebibyte))
            try await connection.send(repeating: TestResponder.patternBlock, count: Self.mebibyte)
            connection.shutdownWrite()
            let failed = await responder.streamEvents.waitFor { if case .uploadFailed = $0 { true } else { false } }
            #expect(failed == .uploadFailed(.clientAborted))
            // The handler's error is no answer of its own: the client gets a 400 and the close.
            let response = try await connection.readResponse()
            #expect(response.status == 400)
            #expect(response.headers["Connection"] == "close")
            #expect(await connection.waitForClose())
        }
    }

    @Test func aClientThatResetsMidBodyFailsTheHandlersStream() async throws {
        try await withServer { server, responder in
            let connection = try connect(server)
            try await connection.send(uploadHead("/upload", length: 10 * Self.mebibyte))
            try await connection.send(repeating: TestResponder.patternBlock, count: Self.mebibyte)
            connection.reset()
            let failed = await responder.streamEvents.waitFor { if case .uploadFailed = $0 { true } else { false } }
            #expect(failed == .uploadFailed(.connectionClosed))
            #expect(await eventually { server.connectionCount == 0 })
        }
    }

    @Test func streamedBodiesKeepTheirLimit() async throws {
        try await withServer { server, responder in
            // A declared length over the route's limit is refused before anything runs.
            let declared = try connect(server)
            try await declared.send(uploadHead("/upload-small", length: 2000))
            #expect(try await declared.readResponse().status == 413)
            #expect(await declared.waitForClose())
            #expect(responder.streamEvents.all.isEmpty)
            // A chunked body is cut off where it passes the limit.
            let chunked = try connect(server)
            try await chunked.send(
                uploadHead("/upload-small", length: nil) + "258\r\n" + String(repeating: "a", count: 600) + "\r\n")
            try await chunked.send("258\r\n")
            let response = try await chunked.readResponse()
            #expect(response.status == 413)
            #expect(await chunked.waitForClose())
            #expect(await responder.streamEvents.waitFor { $0 == .uploadFailed(.bodyTooLarge) } != nil)
        }
    }

    @Test func streamedBodiesKeepTheBodyTimeout() async throws {
        try await withServer(configure: { $0.bodyTimeout = .seconds(30) }) { server, responder in
            let connection = try connect(server)
            try await connection.send(uploadHead("/upload", length: 1000) + "0123456789")
            await clock.advance(by: .seconds(30))
            let response = try await connection.readResponse()
            #expect(response.status == 408)
            #expect(await responder.streamEvents.waitFor { $0 == .uploadFailed(.bodyTimedOut) } != nil)
        }
    }

    // MARK: - Downloads

    @Test(arguments: ["/download", "/download-length"])
    func aHundredMebibyteDownloadStreamsThroughBoundedMemory(path: String) async throws {
        try await withServer { server, responder in
            let total = 100 * Self.mebibyte
            let connection = try connect(server)
            try await connection.send(HTTPRequestText.make("GET", "\(path)/\(total)"))
            let check = PatternCheck()
            let (response, complete) = try await connection.readStreamedResponse {
                check.consume($0); return true
            }
            #expect(response.status == 200)
            #expect(complete)
            if path == "/download" {
                #expect(response.headers["Transfer-Encoding"] == "chunked")
            } else {
                #expect(response.headers["Content-Length"] == "\(total)")
            }
            #expect(check.count == total)
            #expect(check.mismatches == 0)
            #expect(server.peakStreamedBufferBytes <= Self.memoryBound)
            #expect(await responder.streamEvents.waitFor { $0 == .downloadFinished(total) } != nil)
            try await connection.send(HTTPRequestText.make("GET", "/hello"))
            #expect(try await connection.readResponse().text == "hello")
        }
    }

    @Test func aClientThatGoesAwayMidDownloadStopsTheProducer() async throws {
        try await withServer { server, responder in
            let total = 100 * Self.mebibyte
            let connection = try connect(server)
            try await connection.send(HTTPRequestText.make("GET", "/download/\(total)"))
            let check = PatternCheck()
            let (_, complete) = try await connection.readStreamedResponse {
                check.consume($0)
                return check.count < Self.mebibyte
            }
            #expect(!complete)
            connection.reset()
            let stopped = await responder.streamEvents.waitFor { if case .downloadFailed = $0 { true } else { false } }
            guard case .downloadFailed(let code, let written)? = stopped else {
                Issue.record("the producer was not stopped")
                return
            }
            #expect(code == .connectionClosed)
            #expect(written < total)
            #expect(await eventually { server.connectionCount == 0 })
        }
    }

    @Test func http10ClientsGetABodyOfUnknownLengthUntilTheClose() async throws {
        try await withServer { server, _ in
            let connection = try connect(server)
            try await connection.send("GET /download/100000 HTTP/1.0\r\n\r\n")
            let response = try await connection.readResponse()
            #expect(response.headers["Connection"] == "close")
            #expect(response.headers["Transfer-Encoding"] == nil)
            #expect(response.body.count == 100_000)
        }
    }

    // MARK: - Files and ranges

    @Test func filesAreServedWholeOrByRange() async throws {
        let size = 3 * Self.mebibyte + 17
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bmob-file-\(UUID().uuidString)").path
        let contents = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 11) }
        #expect(FileManager.default.createFile(atPath: path, contents: Data(contents)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await withServer(TestResponder(filePath: path)) { server, _ in
            let connection = try connect(server)
            try await connection.send(HTTPRequestText.make("GET", "/file"))
            let whole = try await connection.readResponse()
            #expect(whole.status == 200)
            #expect(whole.headers["Accept-Ranges"] == "bytes")
            #expect(whole.body == contents)

            let cases: [(range: String, status: Int, bytes: ArraySlice<UInt8>, contentRange: String?)] = [
                ("bytes=100-199", 206, contents[100...199], "bytes 100-199/\(size)"),
                ("bytes=\(size - 10)-", 206, contents[(size - 10)...], "bytes \(size - 10)-\(size - 1)/\(size)"),
                ("bytes=-5", 206, contents[(size - 5)...], "bytes \(size - 5)-\(size - 1)/\(size)"),
                ("bytes=0-99999999", 206, contents[...], "bytes 0-\(size - 1)/\(size)"),
                ("bytes=\(size)-", 416, [], "bytes */\(size)"),
                ("bytes=0-1,5-6", 200, contents[...], nil),
                ("pages=1-2", 200, contents[...], nil),
            ]
            for (range, status, bytes, contentRange) in cases {
                try await connection.send(HTTPRequestText.make("GET", "/file", headers: [("Range", range)]))
                let response = try await connection.readResponse()
                #expect(response.status == status, "\(range)")
                #expect(response.body == Array(bytes), "\(range)")
                #expect(response.headers["Content-Range"] == contentRange, "\(range)")
            }
            #expect(server.peakStreamedBufferBytes <= Self.memoryBound)
        }
    }
}
