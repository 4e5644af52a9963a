package import BmobWire

/// A JSON Web Token in JWS compact serialization (RFC 7519, RFC 7515 §7.1), read but not yet trusted:
/// `base64url(header) . base64url(claims) . base64url(signature)`.
///
/// Parsing only checks the form: three parts, canonical base64url, a header that is a JSON object with a
/// string `alg` (and a string `kid` if any), claims that are a JSON object. Whether the signature, the
/// algorithm and the claims are acceptable is the caller's decision (``OIDCAuthDataValidator``).
///
/// ## Topics
///
/// ### Reading a token
/// - ``init(compact:)``
/// - ``maximumLength``
///
/// ### Parts
/// - ``header``
/// - ``algorithm``
/// - ``keyID``
/// - ``claims``
/// - ``signingInput``
/// - ``signature``
package struct JSONWebToken: Sendable, Equatable {
    /// Longer tokens are refused before any decoding; real id tokens are one to two kilobytes.
    package static let maximumLength = 16 * 1024

    /// The JOSE header.
    package let header: [String: JSONValue]
    /// The claims set (the payload).
    package let claims: [String: JSONValue]
    /// The bytes the signature covers: the ASCII of `header.payload` exactly as the token spells them.
    package let signingInput: [UInt8]
    /// The decoded signature, possibly empty (as in an `alg: none` token).
    package let signature: [UInt8]

    /// Parses a compact JWS.
    ///
    /// - Parameter compact: The token text.
    /// - Throws: ``JSONWebTokenError`` naming the part that is malformed; never traps on any input.
    package init(compact: String) throws(JSONWebTokenError) {
        let bytes = Array(compact.utf8)
        guard !bytes.isEmpty else { throw JSONWebTokenError("the token is empty") }
        guard bytes.count <= Self.maximumLength else {
            throw JSONWebTokenError("the token is longer than \(Self.maximumLength) bytes")
        }
        let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            throw JSONWebTokenError("the token has \(parts.count) parts, not the three of a signed JWT")
        }
        let header = try Self.jsonObject(parts[0], part: "header")
        let claims = try Self.jsonObject(parts[1], part: "payload")
        guard let signature = Self.decodeBase64URL(parts[2]) else {
            throw JSONWebTokenError("the signature is not base64url")
        }
        guard case .string? = header["alg"] else { throw JSONWebTokenError("the header has no alg string") }
        switch header["kid"] {
        case nil, .string?: break
        default: throw JSONWebTokenError("the header's kid is not a string")
        }
        // RFC 7515 §4.1.11: extensions marked critical must be understood, and this reader knows none.
        guard header["crit"] == nil else { throw JSONWebTokenError("the header lists critical extensions (crit)") }
        self.header = header
        self.claims = claims
        self.signingInput = Array(bytes[..<parts[1].endIndex])
        self.signature = signature
    }

    /// The header's `alg`, e.g. `RS256`.
    package var algorithm: String { header["alg"]?.stringValue ?? "" }

    /// The header's `kid`, naming the signing key, if any.
    package var keyID: String? { header["kid"]?.stringValue }

    /// One part decoded from base64url and parsed as a JSON object.
    private static func jsonObject(_ part: ArraySlice<UInt8>, part name: String) throws(JSONWebTokenError) -> [String:
        JSONValue]
    {
        guard let decoded = decodeBase64URL(part) else {
            throw JSONWebTokenError("the \(name) is not base64url")
        }
        guard case .object(let members)? = try? JSONParser.parse(decoded) else {
            throw JSONWebTokenError("the \(name) is not a JSON object")
        }
        return members
    }
}
