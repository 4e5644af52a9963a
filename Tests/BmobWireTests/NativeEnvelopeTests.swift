import BmobCrypto
import BmobWire
import Testing

/// ``NativeEnvelope``: key derivations from real-looking User-Agents, sealing and opening, and a vector made
/// with `openssl enc -aes-128-cbc -K <hex> -iv <hex> -base64 -A`.
@Suite struct NativeEnvelopeTests {
    static let iOSAgent = "1761040954iOS18.0.0"
    static let linuxAgent = "1761040954unknown0.0.0"

    @Test func textKeysArePaddedOrCut() {
        #expect(NativeEnvelope.key("testsecretkey001") == Array("testsecretkey001".utf8))
        #expect(NativeEnvelope.key("abc") == Array("abc".utf8) + [UInt8](repeating: 0, count: 13))
        #expect(NativeEnvelope.key("0123456789abcdefXYZ") == Array("0123456789abcdef".utf8))
        #expect(NativeEnvelope.key("") == [UInt8](repeating: 0, count: 16))
    }

    @Test func secretRequestKeyIsTheUserAgentsLast16Bytes() {
        #expect(NativeEnvelope.tailKey(Self.iOSAgent) == Array("1040954iOS18.0.0".utf8))
        #expect(NativeEnvelope.tailKey(Self.linuxAgent) == Array("0954unknown0.0.0".utf8))
        // A Response-Id: 10 digits of seconds and a version; its last 16 bytes key the handshake's answer.
        #expect(NativeEnvelope.tailKey("1761040954BmobSwift/0.1.0") == Array("54BmobSwift/0.1.0".utf8.suffix(16)))
    }

    @Test func acceptIdKeyIsUserAgentBytes1To16() {
        #expect(NativeEnvelope.acceptIdKey(userAgent: Self.iOSAgent) == Array("761040954iOS18.0".utf8))
        #expect(NativeEnvelope.acceptIdKey(userAgent: Self.linuxAgent) == Array("761040954unknown".utf8))
    }

    @Test func userAgentKeysAndShifts() throws {
        let agent = try #require(NativeUserAgent(Self.iOSAgent))
        #expect(agent.secretRequestKey == NativeEnvelope.tailKey(Self.iOSAgent))
        #expect(agent.acceptIdKey == NativeEnvelope.acceptIdKey(userAgent: Self.iOSAgent))
        #expect(agent.shifted(by: 1)?.text == "1761040955iOS18.0.0")
        #expect(agent.shifted(by: -1)?.text == "1761040953iOS18.0.0")
        #expect(NativeUserAgent("1999999999unknown0.0.0")?.shifted(by: 1)?.text == "2000000000unknown0.0.0")
        #expect(NativeUserAgent("9999999999unknown0.0.0")?.shifted(by: 1) == nil)
        #expect(
            NativeUserAgent("0999999999unknown0.0.0")?.shifted(by: 1)?.shifted(by: -1)?.text == "0999999999unknown0.0.0"
        )
        #expect(NativeUserAgent("Mozilla/5.0 (X11; Linux)")?.shifted(by: 1) == nil)
        #expect(NativeUserAgent(nil) == nil)
        #expect(NativeUserAgent("1761040954iOS18.") == nil)  // 16 bytes: no byte 16
        #expect(NativeUserAgent("1761040954iOS18.0") != nil)
    }

    @Test(arguments: [iOSAgent, linuxAgent]) func acceptIdOpensWithTheSameOrANeighbouringSecond(agentText: String)
        throws
    {
        let agent = try #require(NativeUserAgent(agentText))
        let applicationId = "testapp0000000000000000000000001"
        for shift: Int64 in [0, -1, 1] {
            let keyAgent = try #require(agent.shifted(by: shift))
            let header = NativeEnvelope.seal(Array(applicationId.utf8), key: keyAgent.acceptIdKey)
            #expect(try agent.applicationIds(acceptId: header).first == applicationId)
        }
        for shift: Int64 in [-5, 5] {
            let keyAgent = try #require(agent.shifted(by: shift))
            let header = NativeEnvelope.seal(Array(applicationId.utf8), key: keyAgent.acceptIdKey)
            let found = (try? agent.applicationIds(acceptId: header)) ?? []
            #expect(!found.contains(applicationId))
        }
    }

    @Test(arguments: ["", "not base64!", "AAAA", Base64.encodeString([UInt8](repeating: 7, count: 16))])
    func acceptIdErrorsAreUnauthorized(header: String) throws {
        let agent = try #require(NativeUserAgent(Self.iOSAgent))
        #expect {
            try agent.applicationIds(acceptId: Array(header.utf8))
        } throws: { error in
            (error as? BmobRequestError)?.code == .unauthorized
        }
    }

    @Test func acceptIdMatchesOpenSSL() throws {
        // printf testapp0000000000000000000000001 | openssl enc -aes-128-cbc -K <hex "761040954iOS18.0"> -iv <same> -base64 -A
        let header = "dp03v8QF5jVFKimDZ1uHW5tXvoYHjbNA+1dYUpQJKfXrZ/b+ShBm1OMAQsPdyXZa"
        let agent = try #require(NativeUserAgent(Self.iOSAgent))
        #expect(try agent.applicationIds(acceptId: Array(header.utf8)) == ["testapp0000000000000000000000001"])
        #expect(Base64.encodeString(Base64.decode(Array(header.utf8)) ?? []) == header)
        #expect(
            NativeEnvelope.seal(Array("testapp0000000000000000000000001".utf8), key: agent.acceptIdKey)
                == Array(header.utf8))
    }

    @Test func secretRequestMatchesOpenSSL() throws {
        // printf '{"appKey":"testapp0000000000000000000000001"}' | openssl enc -aes-128-cbc
        //   -K <hex "1040954iOS18.0.0"> -iv <same> -base64 -A
        let body = "kUaYBPQv2O9nUFN0oTiPvIqs2sAZOuWvExWKdmSQBjuf6KtvbJF+tje3CF1F5/OH"
        let agent = try #require(NativeUserAgent(Self.iOSAgent))
        #expect(try agent.secretApplicationId(body: Array(body.utf8)) == "testapp0000000000000000000000001")
    }

    /// Made once on this machine with `openssl enc -aes-128-cbc -K 746573747365637265746b6579303031
    /// -iv 746573747365637265746b6579303031 -base64 -A` (the key is `testsecretkey001`).
    @Test func knownVectorBothWays() throws {
        let plaintext = #"{"result":{"code":200,"message":"ok"},"data":{"a":1}}"#
        let sealed = "IJE7HZr9klTx9md6KfKcHqz7ZkkwkuFXi4K9uGmFbJS79k0/f4zoBSgHOvRKY5fPEVeHu86a0UJPAOQGBMbA/A=="
        let key = NativeEnvelope.key("testsecretkey001")
        #expect(NativeEnvelope.seal(Array(plaintext.utf8), key: key) == Array(sealed.utf8))
        #expect(try NativeEnvelope.open(Array(sealed.utf8), key: key) == Array(plaintext.utf8))
        let opened = try NativeEnvelope.openJSON(Array(sealed.utf8), key: key)
        #expect(opened["result"]?["code"] == 200)
        #expect(opened["data"] == ["a": 1])
        #expect(NativeEnvelope.successPlaintext(data: Array(#"{"a":1}"#.utf8)) == Array(plaintext.utf8))
    }

    @Test func sealOpenRoundTrip() throws {
        let key = NativeEnvelope.key("0123456789abcdef")
        let value: JSONValue = ["c": "GameScore", "data": ["score": 1337, "name": "数据 +/="], "objectId": nil]
        let sealed = NativeEnvelope.seal(value, key: key)
        #expect(Base64.decode(sealed) != nil)
        #expect(try JSONValue.object(NativeEnvelope.openJSON(sealed, key: key)) == value)
        let response = NativeEnvelope.response(code: 101, message: "object not found", data: [:])
        #expect(
            try JSONValue.object(NativeEnvelope.openJSON(NativeEnvelope.seal(response, key: key), key: key)) == response
        )
        #expect(response["result"]?["code"] == 101)
    }

    @Test func wrongKeyIsUndecryptable() {
        let sealed = NativeEnvelope.seal(["a": 1] as JSONValue, key: NativeEnvelope.key("0123456789abcdef"))
        #expect(throws: NativeEnvelopeError.undecryptable) {
            try NativeEnvelope.open(sealed, key: NativeEnvelope.key("fedcba9876543210"))
        }
    }

    @Test func notBase64() {
        #expect(throws: NativeEnvelopeError.notBase64) {
            try NativeEnvelope.open(Array("{\"a\":1}".utf8), key: NativeEnvelope.key("k"))
        }
    }

    @Test func nonObjectsAreNotJSON() throws {
        let key = NativeEnvelope.key("0123456789abcdef")
        for plaintext in ["[1,2]", "42", "\"text\"", "{\"a\":", "\u{FF}garbage"] {
            let sealed = NativeEnvelope.seal(Array(plaintext.utf8), key: key)
            #expect {
                try NativeEnvelope.openJSON(sealed, key: key)
            } throws: { error in
                if case .notJSON(let message)? = error as? NativeEnvelopeError { !message.isEmpty } else { false }
            }
        }
    }
}
