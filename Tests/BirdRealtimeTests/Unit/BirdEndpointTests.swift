@testable import BirdRealtime
import Foundation
import Testing

@Suite("BirdRealtime: edge URL and the allowInsecure rules")
struct BirdEndpointTests {
    private func url(_ options: BirdRealtimeOptions) throws -> String {
        try BirdEndpoint(options: options).url.absoluteString
    }

    @Test("a region names ws-{region}.bird.com over TLS, with protocol 7 and the bird prefix")
    func region() throws {
        #expect(
            try url(.init(appKey: "key1", region: "us1"))
                == "wss://ws-us1.bird.com/app/key1?protocol=7&client=bird-swift&version=0.1.0&prefix=bird")
        #expect(try url(.init(appKey: "key1", region: "eu1")).hasPrefix("wss://ws-eu1.bird.com/app/key1?"))
    }

    @Test("wsHost wins over region; host:port and bracketed IPv6 are read")
    func wsHost() throws {
        #expect(
            try url(.init(appKey: "k", region: "us1", wsHost: "edge.example.com")).hasPrefix(
                "wss://edge.example.com/app/k?"))
        #expect(
            try url(.init(appKey: "k", wsHost: "edge.example.com:8443")).hasPrefix("wss://edge.example.com:8443/app/k?")
        )
        #expect(try url(.init(appKey: "k", wsHost: "[::1]:9000")).hasPrefix("wss://[::1]:9000/app/k?"))
    }

    @Test("allowInsecure gives ws:// only for localhost, 127.0.0.1 and [::1]")
    func allowInsecure() throws {
        for host in ["localhost", "LOCALHOST:3000", "127.0.0.1", "127.0.0.1:8080", "[::1]", "[::1]:9000"] {
            #expect(try url(.init(appKey: "k", wsHost: host, allowInsecure: true)).hasPrefix("ws://"), "\(host)")
            #expect(try url(.init(appKey: "k", wsHost: host)).hasPrefix("wss://"), "\(host) without allowInsecure")
        }
        for host in [
            "edge.example.com", "127.0.0.2", "10.0.0.1:80", "localhost.example.com", "[::2]", "[fe80::1]:80", "0.0.0.0",
        ] {
            #expect(
                try url(.init(appKey: "k", wsHost: host, allowInsecure: true)).hasPrefix("wss://"), "\(host) stays wss")
        }
        #expect(try url(.init(appKey: "k", region: "us1", allowInsecure: true)).hasPrefix("wss://"))
    }

    @Test("no region or host, a malformed host, port or key: a configuration error")
    func invalid() {
        #expect(throws: BirdRealtimeError.self) { try BirdEndpoint(options: .init(appKey: "k")) }
        for host in ["", "a b", "host:", "host:0", "host:70000", "host:+80", "[::1", "[::1]x", "a/b", "host:8080:1"] {
            #expect(throws: BirdRealtimeError.self, "\(host)") {
                try BirdEndpoint(options: .init(appKey: "k", wsHost: host))
            }
        }
        #expect(throws: BirdRealtimeError.self) { try BirdEndpoint(options: .init(appKey: "k", region: "us1/x")) }
        #expect(throws: BirdRealtimeError.self) { try BirdEndpoint(options: .init(appKey: "", region: "us1")) }
        #expect(throws: BirdRealtimeError.self) { try BirdEndpoint(options: .init(appKey: "a/../b", region: "us1")) }
    }

    @Test("a client with no host fails at once and reports why on onError")
    func clientWithoutHost() async throws {
        let recorder = Recorder()
        // Suspended until the handlers are registered, so the report made inside the initializer is not missed.
        let queue = DispatchQueue(label: "t")
        queue.suspend()
        let bird = BirdRealtime(options: .init(appKey: "k", deliveryQueue: queue))
        bird.record(into: recorder)
        queue.resume()
        #expect(bird.state == .failed)
        try await recorder.wait(prefix: "error nil: set a region")
        #expect(recorder.lines.first == "state initialized→failed")
        await #expect(throws: BirdRealtimeError.self) { try await bird.signin() }
    }
}
