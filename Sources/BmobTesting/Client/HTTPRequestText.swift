/// Builds raw HTTP/1.1 request bytes for ``RawHTTPConnection``: the request encoder lives only in test code.
package enum HTTPRequestText {
    /// `method target HTTP/1.1` with `Host`, the given headers, and a `Content-Length` body when one is given.
    package static func make(
        _ method: String,
        _ target: String,
        headers: [(String, String)] = [],
        body: [UInt8]? = nil,
        version: String = "HTTP/1.1"
    ) -> [UInt8] {
        var text = "\(method) \(target) \(version)\r\nHost: localhost\r\n"
        for (name, value) in headers {
            text += "\(name): \(value)\r\n"
        }
        if let body {
            text += "Content-Length: \(body.count)\r\n"
        }
        text += "\r\n"
        return Array(text.utf8) + (body ?? [])
    }

    package static func make(_ method: String, _ target: String, headers: [(String, String)] = [], json: String) -> [UInt8] {
        make(method, target, headers: headers + [("Content-Type", "application/json")], body: Array(json.utf8))
    }
}
