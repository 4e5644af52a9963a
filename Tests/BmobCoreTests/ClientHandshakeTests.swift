import BmobTesting
import BmobWire
import Foundation
import Testing

@testable import BmobCore

@Suite("Client handshake against the in-process server")
struct ClientHandshakeTests {
    @Test("initialize exchanges keys, reads init, and data calls work; a second client is independent")
    func handshake() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let client = BmobClient()
        client.resetDomain(server.baseURL)
        #expect(client.isReady == false)
        await #expect(throws: BmobError.self) { _ = try await client.call("timestamp", [:]) }

        try await client.initialize(appKey: TestServer.applicationId)
        #expect(client.isReady)
        let session = try #require(client.currentSession)
        #expect(session.secretKey == NativeEnvelope.key(TestServer.secretKey))
        #expect(session.settings["io"] == server.baseURL)
        // Same machine, so about zero; the bound leaves room for this VM's wall clock, which was seen to step by
        // 3 s while the whole suite loaded both cores.
        #expect(abs(session.clockOffset) <= 10)

        let time = try await client.call("timestamp", [:])
        let seconds = try #require(time["timestamp"]?.int64Value)
        #expect(abs(seconds - Int64(Date().timeIntervalSince1970)) <= 10)

        let created = try await client.call("create", ["c": "Handshake", "data": ["n": 1]])
        #expect(created["objectId"]?.stringValue?.count == 10)

        let other = BmobClient()
        #expect(other.isReady == false)
    }

    @Test("initialize fails clearly: empty key, bad domain, unknown app, nothing listening")
    func failures() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let client = BmobClient()
        await #expect(throws: BmobError.self) { try await client.initialize(appKey: "") }
        client.resetDomain("not a url")
        await #expect {
            try await client.initialize(appKey: TestServer.applicationId)
        } throws: { error in
            if case .invalidParameter? = error as? BmobError { return true }
            return false
        }
        client.resetDomain(server.baseURL)
        await #expect {
            try await client.initialize(appKey: "unknown-app")
        } throws: { error in
            if case .serverError? = error as? BmobError { return true }
            return false
        }
        #expect(client.isReady == false)
        client.resetDomain("http://127.0.0.1:1")
        await #expect {
            try await client.initialize(appKey: TestServer.applicationId)
        } throws: { error in
            if case .networkError? = error as? BmobError { return true }
            return false
        }
    }
}

@Suite("BmobTestServer, the public harness")
struct BmobTestServerTests {
    @Test("starts, serves the SDK's handshake with its published keys, and stops")
    func lifecycle() async throws {
        let server = try await BmobTestServer.start()
        #expect(server.baseURL == "http://127.0.0.1:\(server.port)")
        let client = BmobClient()
        client.resetDomain(server.baseURL)
        try await client.initialize(appKey: server.applicationId)
        #expect(client.isReady)
        let folder = server.dataDirectory
        await server.stop()
        #expect(FileManager.default.fileExists(atPath: folder.path) == false)
    }
}
