package import BmobWire

/// A response read off the wire by ``RawHTTPConnection``.
package struct RawHTTPResponse: Sendable {
    package var status: Int
    package var reason: String
    package var headers: HTTPHeaders
    package var body: [UInt8]

    /// The body as UTF-8 text.
    package var text: String { String(decoding: body, as: UTF8.self) }

    /// The body parsed as JSON, or `nil` if it is not JSON.
    package var json: JSONValue? { try? JSONParser.parse(body) }
}
