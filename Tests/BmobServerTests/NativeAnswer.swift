import BmobTesting
import BmobWire

/// A native `/8/` answer, opened: the envelope's `result` and `data`, and the HTTP response it came in.
struct NativeAnswer {
    var code: Int
    var message: String
    var data: JSONValue
    var http: RawHTTPResponse
    /// The whole opened envelope, for members beside `result` and `data`.
    var envelope: [String: JSONValue]

    /// Opens `response` with `key`; fails the test's precondition when it is not a sealed envelope.
    init(_ response: RawHTTPResponse, key: [UInt8]) throws {
        let envelope: [String: JSONValue]
        do {
            envelope = try NativeEnvelope.openJSON(response.body, key: key)
        } catch {
            throw TestFailure(
                "the answer does not open with the expected key (\(error)): HTTP \(response.status) \(response.text)")
        }
        guard let code = envelope["result"]?["code"]?.int64Value,
            let message = envelope["result"]?["message"]?.stringValue,
            let data = envelope["data"]
        else {
            throw TestFailure("not an envelope: \(JSONValue.object(envelope).jsonString)")
        }
        self.code = Int(code)
        self.message = message
        self.data = data
        self.http = response
        self.envelope = envelope
    }
}
