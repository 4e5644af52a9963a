import BmobCrypto
import BmobWire
import Foundation
import Testing

@testable import BmobCore

@Suite("Native transport: answers and errors")
struct NativeTransportTests {
    private let key = NativeEnvelope.key("testsecretkey001")

    private func sealed(_ value: JSONValue) -> Data {
        Data(NativeEnvelope.seal(value, key: key))
    }

    @Test("a 200 answer yields its data")
    func success() throws {
        let body = sealed(NativeEnvelope.response(code: 200, message: "ok", data: ["objectId": "a1b2c3d4e5"]))
        #expect(try NativeTransport.unwrap(body, status: 200, key: key) == ["objectId": "a1b2c3d4e5"])
    }

    @Test("server codes map to BmobError", arguments: [
        (101, "object not found"), (111, "type mismatch"), (105, "invalid field name"), (9015, "other"),
    ])
    func serverCodes(code: Int, message: String) throws {
        let body = sealed(NativeEnvelope.response(code: code, message: message, data: [:]))
        #expect {
            _ = try NativeTransport.unwrap(body, status: 200, key: key)
        } throws: { error in
            switch (code, error as? BmobError) {
            case (101, .objectNotFound?): return true
            case (_, .serverError(let got, let text)?): return got == code && text == message && code != 101
            default: return false
            }
        }
    }

    @Test("an answer that is not the envelope is jsonParsingFailed; a plain-text HTTP error keeps its status")
    func malformed() {
        #expect {
            _ = try NativeTransport.unwrap(Data("not base64!".utf8), status: 200, key: key)
        } throws: { error in
            if case .jsonParsingFailed? = error as? BmobError { return true }
            return false
        }
        #expect {
            _ = try NativeTransport.unwrap(Data("Bad Gateway".utf8), status: 502, key: key)
        } throws: { error in
            if case .serverError(502, let message)? = error as? BmobError { return message == "Bad Gateway" }
            return false
        }
        // Sealed with another key.
        let foreign = Data(NativeEnvelope.seal(NativeEnvelope.response(code: 200, message: "ok", data: [:]), key: NativeEnvelope.key("another-key-0001")))
        #expect(throws: BmobError.self) { _ = try NativeTransport.unwrap(foreign, status: 200, key: key) }
        // A 200 envelope without data.
        let empty = sealed(["result": ["code": 200, "message": "ok"]])
        #expect(throws: BmobError.self) { _ = try NativeTransport.unwrap(empty, status: 200, key: key) }
    }

    @Test("domains: http(s) only, trailing slash and /8 dropped")
    func domains() {
        #expect(BmobClient.parseDomain("https://api.example.com/")?.absoluteString == "https://api.example.com")
        #expect(BmobClient.parseDomain("http://127.0.0.1:8080/8/")?.absoluteString == "http://127.0.0.1:8080")
        #expect(BmobClient.parseDomain("ftp://example.com") == nil)
        #expect(BmobClient.parseDomain("example.com") == nil)
        #expect(BmobClient.parseDomain("") == nil)
    }

    @Test("the user agent is 10 digits of time, the platform and the OS version, at least 18 bytes")
    func userAgent() {
        let agent = BmobUserAgent.make(now: Date(timeIntervalSince1970: 1_761_040_954))
        #expect(agent.hasPrefix("1761040954" + BmobUserAgent.platform))
        #expect(agent.utf8.count >= 18)
    }

    @Test("BmobError codes and descriptions")
    func errorSurface() {
        #expect(BmobError.objectNotFound.code == 101)
        #expect(BmobError.serverError(code: 111, message: "x").code == 111)
        #expect(BmobError.timeout.code == nil)
        #expect(BmobError.notInitialized.localizedDescription.contains("initialize"))
        #expect("\(BmobError.invalidParameter(reason: "bad"))".contains("bad"))
    }
}
