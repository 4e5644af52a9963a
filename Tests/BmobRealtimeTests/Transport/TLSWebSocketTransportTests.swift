#if canImport(Glibc) || canImport(Musl) || canImport(Android)
import BmobRealtime
import BmobWire
import Foundation
import Testing

/// `wss` through OpenSSL against Python `websockets` with certificates made by the `openssl` CLI.
@Suite("POSIX WebSocket transport over TLS", .serialized, .timeLimit(.minutes(1)))
struct TLSWebSocketTransportTests {
    private func connect(_ url: String, trusting caFile: String?) async throws -> (POSIXWebSocketTransport, TransportRecorder) {
        var configuration = POSIXWebSocketTransport.Configuration()
        if let caFile { configuration.tls.trustCertificates(inFile: caFile) }
        let transport = POSIXWebSocketTransport(configuration: configuration)
        let recorder = TransportRecorder()
        try await transport.connect(to: URL(string: url)!, headers: [], timeout: .seconds(20), onEvent: recorder.handler)
        return (transport, recorder)
    }

    @Test("a server whose certificate chains to a trusted CA works by host name and by IP address")
    func trusted() async throws {
        let certificates = try await TestCertificates.make()
        defer { certificates.remove() }
        let peer = try await PythonPeer(
            script: "websocket_peer.py", arguments: ["--cert", certificates.serverCertificate, "--key", certificates.serverKey])
        defer { peer.stop() }
        for host in ["localhost", "127.0.0.1"] {
            let (transport, recorder) = try await connect("wss://\(host):\(peer.port)/echo", trusting: certificates.caFile)
            transport.send(.text("secure ✓"))
            transport.send(.binary(Array(repeating: 7, count: 100_000)))
            let messages = try await recorder.waitForMessages(2)
            #expect(messages[0] == .text("secure ✓"))
            #expect(messages[1] == .binary(Array(repeating: 7, count: 100_000)))
            transport.close(code: .normalClosure, reason: "bye")
            let closure = try await recorder.waitForClosure()
            #expect(closure.isClean)
            #expect(closure.code == .normalClosure)
            #expect(try await peer.line(prefix: "CLOSED /echo") == "CLOSED /echo 1000 bye")
        }
    }

    @Test("an untrusted certificate, or one for another host, fails the connection")
    func untrusted() async throws {
        let certificates = try await TestCertificates.make()
        defer { certificates.remove() }
        let peer = try await PythonPeer(
            script: "websocket_peer.py", arguments: ["--cert", certificates.serverCertificate, "--key", certificates.serverKey])
        defer { peer.stop() }
        await #expect {
            _ = try await connect("wss://localhost:\(peer.port)/echo", trusting: nil)
        } throws: { error in
            let error = error as? WebSocketTransportError
            return error?.code == .tlsFailed && error?.message.contains("certificate verify failed") == true
        }

        let other = try await PythonPeer(
            script: "websocket_peer.py", arguments: ["--cert", certificates.otherCertificate, "--key", certificates.otherKey])
        defer { other.stop() }
        for host in ["localhost", "127.0.0.1"] {
            await #expect {
                _ = try await connect("wss://\(host):\(other.port)/echo", trusting: certificates.caFile)
            } throws: { error in
                (error as? WebSocketTransportError)?.code == .tlsFailed
            }
        }
    }
}
#endif
