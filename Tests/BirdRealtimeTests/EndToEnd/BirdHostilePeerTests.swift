#if canImport(Glibc)
    @testable import BirdRealtime
    import BmobRealtime
    import BmobWire
    import Dispatch
    import Foundation
    import Testing

    /// The client with its real Linux transport against a raw-socket peer that sends malformed and oversized
    /// frames: every hostile connection ends without a crash, the client backs off and reconnects, and the last,
    /// well-behaved connection works.
    @Suite("BirdRealtime: a hostile WebSocket peer")
    struct BirdHostilePeerTests {
        static func established(_ id: String) -> [UInt8] {
            RawWebSocketPeer.text(
                #"{"event":"bird:connection_established","data":"{\"socket_id\":\"\#(id)\",\"activity_timeout\":120}"}"#
            )
        }

        @Test(
            "garbage JSON, invalid UTF-8, a 2^62-byte length, a 1.5 MiB message, stray binary: survived, then a good connection"
        )
        func hostilePeer() async throws {
            let deep = String(repeating: "{\"a\":", count: 2_000) + "1" + String(repeating: "}", count: 2_000)
            let peer = try RawWebSocketPeer { connection in
                switch connection {
                case 0:
                    return [
                        Self.established("1.1"), RawWebSocketPeer.text("not json"), RawWebSocketPeer.text("{"),
                        RawWebSocketPeer.text(deep),
                        RawWebSocketPeer.text(#"{"event":"bird:error","data":{"code":"x"}}"#),
                        // Invalid UTF-8: fails the connection.
                        RawWebSocketPeer.frame(opcode: 1, [0x7B, 0xC3, 0x28, 0x7D]),
                    ]
                case 1:
                    // A frame header announcing 2^62 bytes.
                    return [Self.established("2.2"), [0x81, 127, 0x40, 0, 0, 0, 0, 0, 0, 0]]
                case 2:
                    let big =
                        #"{"event":"e","channel":"orders","data":""# + String(repeating: "x", count: 1_500_000) + #""}"#
                    return [Self.established("3.3"), RawWebSocketPeer.text(big)]
                case 3:
                    return [
                        RawWebSocketPeer.frame(opcode: 2, [0xFF, 0xFE]), RawWebSocketPeer.frame(opcode: 0, [1, 2, 3]),
                    ]
                default:
                    return [
                        RawWebSocketPeer.frame(opcode: 2, [0, 1, 2]), Self.established("9.9"),
                        RawWebSocketPeer.text(
                            #"{"event":"bird_internal:subscription_succeeded","channel":"orders","data":"{}"}"#),
                        RawWebSocketPeer.text(#"{"event":"e","channel":"orders","data":"{\"ok\":true}"}"#),
                    ]
                }
            }
            defer { peer.stop() }
            let log = Recorder()
            let environment = BirdRealtimeEnvironment(
                backoff: BirdReconnectBackoff(minimum: .milliseconds(20), maximum: .milliseconds(100)))
            let bird = BirdRealtimeEnvironment.$current.withValue(environment) {
                BirdRealtime(
                    options: .init(
                        appKey: "key", wsHost: "127.0.0.1:\(peer.port)", deliveryQueue: DispatchQueue(label: "h"),
                        allowInsecure: true))
            }
            defer { bird.disconnect() }
            bird.record(into: log)
            bird.subscribe("orders").record(["e"], into: log)
            // A long bound: a whole-suite run on two cores can starve the client's tasks for many seconds.
            do {
                try await log.wait(prefix: #"e {"ok":true}"#, timeout: 90)
            } catch {
                throw TestFailure("\(error); state \(bird.state), \(peer.connections) connections")
            }
            #expect(bird.connectionId == "9.9")
            #expect(peer.connections == 5)
            #expect(log.count { $0.hasPrefix("e ") } == 1)
            #expect(log.count { $0 == "state connected→unavailable" } >= 3, "\(log.lines)")
            #expect(log.count { $0.hasPrefix("state") && $0.hasSuffix("→failed") } == 0)
        }
    }
#endif
