/// An HTTP response status code with its reason phrase.
package struct HTTPStatus: Hashable, Sendable, CustomStringConvertible {
    package var code: Int
    package var reasonPhrase: String

    package init(code: Int, reasonPhrase: String? = nil) {
        self.code = code
        self.reasonPhrase = reasonPhrase ?? Self.standardReason(code)
    }

    package var description: String { "\(code) \(reasonPhrase)" }

    /// Whether a response with this status carries a body (RFC 9110 §6.4.1: not 1xx, 204 or 304).
    package var permitsBody: Bool {
        code >= 200 && code != 204 && code != 304
    }

    package static let `continue` = Self(code: 100)
    package static let switchingProtocols = Self(code: 101)
    package static let ok = Self(code: 200)
    package static let created = Self(code: 201)
    package static let noContent = Self(code: 204)
    package static let partialContent = Self(code: 206)
    package static let badRequest = Self(code: 400)
    package static let unauthorized = Self(code: 401)
    package static let forbidden = Self(code: 403)
    package static let notFound = Self(code: 404)
    package static let methodNotAllowed = Self(code: 405)
    package static let requestTimeout = Self(code: 408)
    package static let payloadTooLarge = Self(code: 413)
    package static let uriTooLong = Self(code: 414)
    package static let rangeNotSatisfiable = Self(code: 416)
    package static let expectationFailed = Self(code: 417)
    package static let requestHeaderFieldsTooLarge = Self(code: 431)
    package static let internalServerError = Self(code: 500)
    package static let notImplemented = Self(code: 501)
    package static let serviceUnavailable = Self(code: 503)
    package static let httpVersionNotSupported = Self(code: 505)

    private static func standardReason(_ code: Int) -> String {
        switch code {
        case 100: "Continue"
        case 101: "Switching Protocols"
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 206: "Partial Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 411: "Length Required"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 415: "Unsupported Media Type"
        case 416: "Range Not Satisfiable"
        case 417: "Expectation Failed"
        case 426: "Upgrade Required"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        case 505: "HTTP Version Not Supported"
        default: "Status \(code)"
        }
    }
}
