import BmobCrypto

/// The parts of a SigV4 `Authorization` header value,
/// `AWS4-HMAC-SHA256 Credential=<key id>/<date>/<region>/<service>/aws4_request, SignedHeaders=<a;b>,
/// Signature=<64 hex>`.
///
/// Parsing takes untrusted input: lengths are bounded and anything malformed is a ``SigV4AuthorizationError``.
/// The components may come in any order, separated by `,` with or without spaces or tabs around them.
package struct SigV4Authorization: Sendable, Hashable, CustomStringConvertible {
    /// Longest header value accepted, in UTF-8 bytes.
    package static let maximumLength = 4096
    /// Most signed headers accepted.
    package static let maximumSignedHeaders = 64
    /// Longest access key id accepted.
    package static let maximumAccessKeyIdLength = 128
    /// Longest region, service or signed header name accepted.
    package static let maximumNameLength = 64

    /// The access key id of the credential.
    package var accessKeyId: String
    /// The credential scope's date, `yyyyMMdd`.
    package var date: String
    /// The credential scope's region.
    package var region: String
    /// The credential scope's service.
    package var service: String
    /// The signed header names: lowercase, sorted, unique.
    package var signedHeaders: [String]
    /// The 32-byte signature.
    package var signature: [UInt8]

    /// An authorization from its parts, as a signer produces it.
    package init(
        accessKeyId: String, date: String, region: String, service: String, signedHeaders: [String],
        signature: [UInt8]
    ) {
        self.accessKeyId = accessKeyId
        self.date = date
        self.region = region
        self.service = service
        self.signedHeaders = signedHeaders
        self.signature = signature
    }

    /// Parses an `Authorization` header value.
    package init(parsing value: some StringProtocol) throws(SigV4AuthorizationError) {
        guard value.utf8.count <= Self.maximumLength else { throw .tooLong }
        let bytes = Self.trimmed(Array(value.utf8)[...])
        let algorithm = Array(SigV4Canonical.algorithm.utf8)
        guard bytes.starts(with: algorithm) else { throw .unsupportedAlgorithm }
        let rest = bytes.dropFirst(algorithm.count)
        guard let first = rest.first, Self.isSpace(first) else { throw .unsupportedAlgorithm }

        var credential: ArraySlice<UInt8>?
        var signedHeaders: ArraySlice<UInt8>?
        var signature: ArraySlice<UInt8>?
        for part in rest.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
            let component = Self.trimmed(part)
            guard let equals = component.firstIndex(of: UInt8(ascii: "=")) else { throw .malformedComponent }
            let name = Self.trimmed(component[..<equals])
            let text = Self.trimmed(component[(equals + 1)...])
            switch String(decoding: name, as: UTF8.self) {
            case "Credential":
                guard credential == nil else { throw .duplicateComponent("Credential") }
                credential = text
            case "SignedHeaders":
                guard signedHeaders == nil else { throw .duplicateComponent("SignedHeaders") }
                signedHeaders = text
            case "Signature":
                guard signature == nil else { throw .duplicateComponent("Signature") }
                signature = text
            default:
                throw .unknownComponent
            }
        }
        guard let credential else { throw .missingComponent("Credential") }
        guard let signedHeaders else { throw .missingComponent("SignedHeaders") }
        guard let signature else { throw .missingComponent("Signature") }

        // Credential: five `/`-separated parts.
        let parts = credential.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        guard parts.count == 5,
            (1...Self.maximumAccessKeyIdLength).contains(parts[0].count),
            parts[0].allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: ",") }),
            SigV4Canonical.isScopeDate(String(decoding: parts[1], as: UTF8.self)),
            Self.isScopeName(parts[2]), Self.isScopeName(parts[3]),
            parts[4].elementsEqual(SigV4Canonical.terminator.utf8)
        else { throw .invalidCredential }

        // Signed headers: sorted, unique, lowercase tokens.
        let names = signedHeaders.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false)
        guard names.count <= Self.maximumSignedHeaders else { throw .tooManySignedHeaders }
        var previous: ArraySlice<UInt8>?
        for name in names {
            guard (1...Self.maximumNameLength).contains(name.count), name.allSatisfy(Self.isLowercaseToken) else {
                throw .invalidSignedHeaders
            }
            if let previous, !previous.lexicographicallyPrecedes(name) { throw .invalidSignedHeaders }
            previous = name
        }

        // Signature: 64 hex digits, either case.
        guard signature.count == 2 * HMACSHA256.codeCount, let signatureBytes = SigV4Canonical.hexBytes(signature)
        else { throw .invalidSignature }

        self.init(
            accessKeyId: String(decoding: parts[0], as: UTF8.self), date: String(decoding: parts[1], as: UTF8.self),
            region: String(decoding: parts[2], as: UTF8.self), service: String(decoding: parts[3], as: UTF8.self),
            signedHeaders: names.map { String(decoding: $0, as: UTF8.self) }, signature: signatureBytes)
    }

    /// The credential scope, `<date>/<region>/<service>/aws4_request`.
    package var scope: String {
        SigV4Canonical.scope(date: date, region: region, service: service)
    }

    /// The header value: `AWS4-HMAC-SHA256 Credential=…, SignedHeaders=…, Signature=…`.
    package var description: String {
        "\(SigV4Canonical.algorithm) Credential=\(accessKeyId)/\(scope), "
            + "SignedHeaders=\(signedHeaders.joined(separator: ";")), Signature=\(Hex.encode(signature))"
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }

    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var bytes = bytes
        while let first = bytes.first, isSpace(first) { bytes.removeFirst() }
        while let last = bytes.last, isSpace(last) { bytes.removeLast() }
        return bytes
    }

    /// A region or service: 1…64 ASCII letters, digits, `-` or `_`.
    private static func isScopeName(_ bytes: ArraySlice<UInt8>) -> Bool {
        (1...maximumNameLength).contains(bytes.count)
            && bytes.allSatisfy {
                switch $0 {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                    true
                default: false
                }
            }
    }

    /// An RFC 9110 token character, letters lowercase only.
    private static func isLowercaseToken(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }
}
