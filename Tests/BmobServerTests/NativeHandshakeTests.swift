import BmobCrypto
import BmobServer
import BmobTesting
import BmobWire
import Foundation
import Testing

/// The native `/8/` front door's handshake, app lookup and error envelopes, through HTTP on loopback.
@Suite struct NativeHandshakeTests {
    @Test func secretHandshakeAnswersTheSecretKeyUnderResponseId() async throws {
        try await withTestServer { server in
            let client = NativeTestClient(server)
            let before = Int64(Date().timeIntervalSince1970)
            let response = try await client.secret(appKey: .string(TestServer.applicationId))
            #expect(response.status == 200)
            let responseId = try #require(response.headers["Response-Id"])
            #expect(responseId.utf8.count >= 17)
            let seconds = try #require(Int64(responseId.prefix(10)))
            #expect(seconds >= before && seconds <= before + 5)
            let answer = try NativeAnswer(response, key: NativeEnvelope.tailKey(responseId))
            #expect(answer.code == 200)
            #expect(answer.data == ["secretKey": .string(TestServer.secretKey)])
            // The vendor Swift SDK matches the header in any case.
            #expect(response.headers["response-id"] == responseId)
        }
    }

    @Test func secretFromALinuxClient() async throws {
        try await withTestServer { server in
            var client = NativeTestClient(server)
            client.userAgent = NativeTestClient.userAgent(platform: "unknown0.0.0")
            let response = try await client.secret(appKey: .string(TestServer.applicationId))
            let answer = try NativeAnswer(
                response, key: NativeEnvelope.tailKey(try #require(response.headers["Response-Id"])))
            #expect(answer.data["secretKey"] == .string(TestServer.secretKey))
        }
    }

    @Test func secretErrorsAreSealedWithTheUserAgentKey() async throws {
        try await withTestServer { server in
            let client = NativeTestClient(server)
            let unknown = try NativeAnswer(try await client.secret(appKey: "nosuchapp"), key: client.acceptIdKey)
            #expect(unknown.code == 401)
            #expect(unknown.data == [:])
            #expect(unknown.http.status == 200)
            #expect(unknown.http.headers["Response-Id"] == nil)
            let missing = try NativeAnswer(try await client.secret(appKey: 42), key: client.acceptIdKey)
            #expect(missing.code == 118)
            let notBase64 = try NativeAnswer(
                try await client.post("secret", body: Array("{\"appKey\":1}".utf8)), key: client.acceptIdKey)
            #expect(notBase64.code == 107)
            #expect(notBase64.message.contains("base64"))
            let wrongKey = NativeEnvelope.seal(
                ["appKey": .string(TestServer.applicationId)] as JSONValue, key: NativeEnvelope.key("not the ua key!!"))
            let undecryptable = try NativeAnswer(
                try await client.post("secret", body: wrongKey), key: client.acceptIdKey)
            #expect(undecryptable.code == 107)
            let notJSON = NativeEnvelope.seal(
                Array("appKey=x".utf8), key: NativeEnvelope.tailKey(client.userAgent ?? ""))
            #expect(
                try NativeAnswer(try await client.post("secret", body: notJSON), key: client.acceptIdKey).code == 107)
        }
    }

    @Test func missingOrShortUserAgentIsAnError() async throws {
        try await withTestServer { server in
            for agent in [nil, "1761040954iOS1."] as [String?] {
                var client = NativeTestClient(server)
                client.userAgent = agent
                for route in ["secret", "init", "find"] {
                    let answer = try NativeAnswer(
                        try await client.post(route, body: Array("AAAA".utf8)), key: client.acceptIdKey)
                    #expect(answer.code == 400)
                    #expect(answer.message.contains("User-Agent"))
                }
            }
        }
    }

    @Test func initAnnouncesThisServerAndItsClock() async throws {
        try await withTestServer(clock: .fixed(1_761_040_954_123)) { server in
            let data = try await NativeTestClient(server).data("init")
            let base = JSONValue.string(server.baseURL)
            #expect(server.baseURL.hasPrefix("http://127.0.0.1:") && !server.baseURL.hasSuffix(":0"))
            #expect(data["api"] == base && data["file"] == base && data["io"] == base)
            #expect(data["push"]?.stringValue != nil && data["other"]?.stringValue != nil)
            #expect(data["isUp"] == false)
            #expect(data["upyunVer"]?.int64Value != nil)
            #expect(data["timestamp"] == 1_761_040_954)
        }
    }

    @Test func initAnnouncesTheConfiguredPublicURL() async throws {
        try await withTestServer(configure: { $0.publicURL = "https://bmob.example.com" }) { server in
            let data = try await NativeTestClient(server).data("init")
            #expect(data["io"] == "https://bmob.example.com")
            #expect(data["api"] == "https://bmob.example.com")
        }
    }

    @Test func acceptIdKeyedOneSecondOffIsAccepted() async throws {
        try await withTestServer { server in
            for skew: Int64 in [-1, 0, 1] {
                var client = NativeTestClient(server)
                client.acceptIdSkew = skew
                #expect(try await client.call("timestamp").code == 200)
            }
            for skew: Int64 in [-5, 5] {
                var client = NativeTestClient(server)
                client.acceptIdSkew = skew
                let response = try await client.post(
                    "timestamp", body: NativeEnvelope.seal([:] as JSONValue, key: client.secretKeyBytes))
                let answer = try NativeAnswer(response, key: client.acceptIdKey)
                #expect(answer.code == 401)
            }
        }
    }

    @Test func badAcceptIdIsUnauthorizedAndSealedWithTheUserAgentKey() async throws {
        try await withTestServer { server in
            var client = NativeTestClient(server)
            let body = NativeEnvelope.seal([:] as JSONValue, key: client.secretKeyBytes)
            let headers: [String?] = [
                nil, "", "not base64!", "AAAA", Base64.encodeString(Array("sixteen bytes!!!".utf8)),
            ]
            let messages = [
                "Accept-Id header is required", "Accept-Id header is required", "not base64", "does not decrypt",
                "does not decrypt",
            ]
            for (header, message) in zip(headers, messages) {
                let answer = try NativeAnswer(
                    try await client.post("timestamp", body: body, acceptId: .some(header)), key: client.acceptIdKey)
                #expect(answer.code == 401)
                #expect(answer.message.contains(message), "\(answer.message)")
                #expect(answer.http.status == 200)
            }
            client.applicationId = "nosuchapp0000000000000000000000x"
            let unknown = try NativeAnswer(try await client.post("timestamp", body: body), key: client.acceptIdKey)
            #expect(unknown.code == 401)
            #expect(unknown.message.contains("unknown application"))
        }
    }

    @Test func bodyErrorsAreSealedWithTheSecretKey() async throws {
        try await withTestServer { server in
            let client = NativeTestClient(server)
            let cases: [([UInt8], Int)] = [
                (Array("{\"c\":\"A\"}".utf8), 107),  // not base64
                // Sealed with another key.
                (NativeEnvelope.seal(["c": "A"] as JSONValue, key: NativeEnvelope.key("0000000000000000")), 107),
                (NativeEnvelope.seal(Array("[\"c\"]".utf8), key: client.secretKeyBytes), 107),  // not an object
                (NativeEnvelope.seal(Array("{\"c\":".utf8), key: client.secretKeyBytes), 107),  // not JSON
                // Members of the wrong type.
                (NativeEnvelope.seal(["c": 1, "data": [:]] as JSONValue, key: client.secretKeyBytes), 107),
                (NativeEnvelope.seal(["c": "A", "data": [1]] as JSONValue, key: client.secretKeyBytes), 107),
                (NativeEnvelope.seal(["data": ["a": 1]] as JSONValue, key: client.secretKeyBytes), 103),  // no class
                // create on _User is a signup, which needs a username and password.
                (NativeEnvelope.seal(["c": "_User", "data": ["a": 1]] as JSONValue, key: client.secretKeyBytes), 108),
                (Array(repeating: UInt8(ascii: "A"), count: 4096), 107),
            ]
            for (body, code) in cases {
                let answer = try NativeAnswer(try await client.post("create", body: body), key: client.secretKeyBytes)
                #expect(answer.code == code, "\(answer.message)")
                #expect(!answer.message.isEmpty)
                #expect(answer.data == [:])
            }
        }
    }

    @Test func unknownRoutesAndRoutesWithoutAServiceAreErrors() async throws {
        try await withTestServer { server in
            let client = NativeTestClient(server)
            for route in ["nope", "request_sms", "pay", "push"] {
                let answer = try await client.call(route, ["c": "_User"])
                #expect(answer.code == 404)
                #expect(answer.message.contains("unknown route"))
            }
        }
    }

    @Test func theObjectiveCQueryIsIgnored() async throws {
        try await withTestServer { server in
            let client = NativeTestClient(server)
            let body = NativeEnvelope.seal([:] as JSONValue, key: client.secretKeyBytes)
            for query in ["id=000001", "id=", "id=a&b=c"] {
                let answer = try NativeAnswer(
                    try await client.post("timestamp", body: body, query: query), key: client.secretKeyBytes)
                #expect(answer.code == 200)
            }
        }
    }

    @Test func bodiesOverTheLimitAreRefusedAsOnREST() async throws {
        try await withTestServer(configure: { $0.maxBodyBytes = 1024 }) { server in
            let client = NativeTestClient(server)
            let large = NativeEnvelope.seal(
                ["c": "A", "data": ["text": .string(String(repeating: "x", count: 4096))]] as JSONValue,
                key: client.secretKeyBytes)
            let response = try await client.post("create", body: large)
            #expect(response.status == 413)
            let rest = try await server.request("POST", "/1/classes/A", headers: server.appHeaders, body: large)
            #expect(rest.status == 413)
        }
    }

    @Test func otherMethodsAreNotRoutes() async throws {
        try await withTestServer { server in
            let response = try await server.request("GET", "/8/init")
            #expect(response.status == 405)
        }
    }
}
