import BmobCrypto

/// The canonical texts AWS Signature Version 4 signs, in S3's variant (a path is encoded once and never
/// normalised), and the signing-key chain.
///
/// ``SigV4Signer`` and ``SigV4Verifier`` both build their canonical request here, so what one signs is
/// byte for byte what the other checks.
package enum SigV4Canonical {
    /// The only algorithm supported, as named in the `Authorization` header and the string to sign.
    package static let algorithm = "AWS4-HMAC-SHA256"
    /// The last component of every credential scope.
    package static let terminator = "aws4_request"
    /// The `x-amz-content-sha256` value of a request whose body is not part of the signature.
    package static let unsignedPayload = "UNSIGNED-PAYLOAD"
    /// The `x-amz-content-sha256` value of an empty body: the SHA-256 of no bytes.
    package static let emptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    // MARK: Encoding

    /// `text` percent-encoded the way SigV4 asks (RFC 3986): the unreserved `A`–`Z`, `a`–`z`, `0`–`9`,
    /// `-`, `.`, `_`, `~` stay, every other UTF-8 byte becomes `%XX` with uppercase digits; `/` stays only when
    /// `keepingSlash` (object keys in paths), and is `%2F` otherwise (query names and values).
    package static func encode(_ text: some StringProtocol, keepingSlash: Bool) -> String {
        encode(bytes: text.utf8, keepingSlash: keepingSlash)
    }

    /// The canonical URI of an unencoded path such as `/files/2025/01/02/a b.png`: each segment encoded,
    /// slashes kept, and `/` for an empty path. Send the result as the request's path, too, so that what goes
    /// on the wire is what was signed.
    package static func encodePath(_ path: some StringProtocol) -> String {
        if path.isEmpty { return "/" }
        let encoded = encode(path, keepingSlash: true)
        return encoded.hasPrefix("/") ? encoded : "/" + encoded
    }

    /// The canonical URI of a path as received: each `/`-separated segment percent-decoded, then encoded
    /// again, which is how S3 reads a path whose client escaped more or less than SigV4 does (a raw `$`, a
    /// `%7E` for `~`). An escaped `%2F` stays within its segment. Malformed escapes are kept literally.
    package static func canonicalURI(receivedPath path: some StringProtocol) -> String {
        if path.isEmpty { return "/" }
        var result: [UInt8] = []
        var segment: [UInt8] = []
        func flush() {
            appendEncoded(percentDecoded(segment, plusIsSpace: false), keepingSlash: false, to: &result)
            segment.removeAll(keepingCapacity: true)
        }
        if path.utf8.first != UInt8(ascii: "/") { result.append(UInt8(ascii: "/")) }
        for byte in path.utf8 {
            if byte == UInt8(ascii: "/") {
                flush()
                result.append(byte)
            } else {
                segment.append(byte)
            }
        }
        flush()
        return String(decoding: result, as: UTF8.self)
    }

    /// The canonical query string of unencoded name–value pairs: each side encoded, pairs sorted by name
    /// then value, joined `name=value` with `&`. A name without a value, such as `uploads`, is `uploads=`.
    /// Also a valid query string to send.
    package static func canonicalQuery(_ items: [(name: String, value: String)]) -> String {
        joinSorted(items.map { (encode($0.name, keepingSlash: false), encode($0.value, keepingSlash: false)) })
    }

    /// The canonical query string of a query as received (the text after `?`): pairs split on `&` and the
    /// first `=`, percent-decoded (`+` as a space, as S3 reads it), then encoded, sorted and joined as
    /// ``canonicalQuery(_:)`` does. Empty pairs (`a&&b`) are dropped.
    package static func canonicalQuery(received query: some StringProtocol) -> String {
        var pairs: [(String, String)] = []
        for pair in Array(query.utf8).split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let name: ArraySlice<UInt8>
            let value: ArraySlice<UInt8>
            if let equals = pair.firstIndex(of: UInt8(ascii: "=")) {
                name = pair[..<equals]
                value = pair[(equals + 1)...]
            } else {
                name = pair
                value = []
            }
            pairs.append((
                encode(bytes: percentDecoded(name, plusIsSpace: true), keepingSlash: false),
                encode(bytes: percentDecoded(value, plusIsSpace: true), keepingSlash: false)
            ))
        }
        return joinSorted(pairs)
    }

    // MARK: Headers

    /// A header value as SigV4 signs it: spaces and tabs trimmed from both ends, and each inner run of them
    /// made one space.
    package static func canonicalHeaderValue(_ value: some StringProtocol) -> String {
        var result: [UInt8] = []
        result.reserveCapacity(value.utf8.count)
        var pendingSpace = false
        for byte in value.utf8 {
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") {
                pendingSpace = !result.isEmpty
            } else {
                if pendingSpace { result.append(UInt8(ascii: " ")) }
                pendingSpace = false
                result.append(byte)
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// `name` with ASCII letters lowercased; other bytes are left alone, so no locale rule can apply.
    package static func lowercasedName(_ name: some StringProtocol) -> String {
        String(decoding: name.utf8.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// The canonical headers block (`name:value\n` per signed header, in the order of `signedHeaders`), or
    /// `nil` when a signed header is missing from `headers`. Repeated fields of one name join with `,` in
    /// arrival order; names match case-insensitively.
    package static func canonicalHeaders(
        _ headers: [(name: String, value: String)], signedHeaders: [String]
    ) -> String? {
        var values: [String: [String]] = [:]
        let wanted = Set(signedHeaders)
        for header in headers {
            let name = lowercasedName(header.name)
            if wanted.contains(name) { values[name, default: []].append(canonicalHeaderValue(header.value)) }
        }
        var block = ""
        for name in signedHeaders {
            guard let found = values[name] else { return nil }
            block += name + ":" + found.joined(separator: ",") + "\n"
        }
        return block
    }

    // MARK: Signing

    /// The canonical request: method, URI, query, headers block, signed header names and payload hash, one per
    /// line (the headers block ends with its own newline).
    package static func canonicalRequest(
        method: String, canonicalURI: String, canonicalQuery: String, canonicalHeaders: String,
        signedHeaders: [String], payloadHash: String
    ) -> String {
        [method, canonicalURI, canonicalQuery, canonicalHeaders, signedHeaders.joined(separator: ";"), payloadHash]
            .joined(separator: "\n")
    }

    /// The credential scope `<yyyyMMdd>/<region>/<service>/aws4_request`.
    package static func scope(date: String, region: String, service: String) -> String {
        "\(date)/\(region)/\(service)/\(terminator)"
    }

    /// The string to sign: algorithm, request date, scope and the hex SHA-256 of the canonical request.
    package static func stringToSign(amzDate: String, scope: String, canonicalRequest: String) -> String {
        "\(algorithm)\n\(amzDate)\n\(scope)\n\(SHA256.hex(Array(canonicalRequest.utf8)))"
    }

    /// The signing key: HMAC-SHA256 chained from `"AWS4" + secret` over the date, region, service and
    /// `aws4_request`.
    package static func signingKey(secretAccessKey: String, date: String, region: String, service: String) -> [UInt8] {
        var key = Array(("AWS4" + secretAccessKey).utf8)
        for part in [date, region, service, terminator] {
            key = HMACSHA256.authenticationCode(key: key, message: Array(part.utf8))
        }
        return key
    }

    /// The 32-byte signature of `stringToSign` under `signingKey`.
    package static func signature(signingKey: [UInt8], stringToSign: String) -> [UInt8] {
        HMACSHA256.authenticationCode(key: signingKey, message: Array(stringToSign.utf8))
    }

    // MARK: Dates

    /// The `x-amz-date` text of an instant: `yyyyMMdd'T'HHmmss'Z'` in UTC. Years outside 0…9999 are clamped
    /// to its ends, since the form has four digits.
    package static func amzDate(secondsSince1970 seconds: Int64) -> String {
        let bounded = min(max(seconds, minimumSeconds), maximumSeconds)
        let days = bounded >= 0 ? bounded / 86_400 : (bounded - 86_399) / 86_400
        let secondOfDay = Int(bounded - days * 86_400)
        let (year, month, day) = BmobDateFormat.civilDate(daysSince1970: days)
        return digits(year, 4) + digits(month, 2) + digits(day, 2) + "T" + digits(secondOfDay / 3600, 2)
            + digits(secondOfDay / 60 % 60, 2) + digits(secondOfDay % 60, 2) + "Z"
    }

    /// The instant an `x-amz-date` text names, or `nil` unless it is exactly `yyyyMMdd'T'HHmmss'Z'` with a
    /// real calendar date and a time of day below 24:00:00.
    package static func secondsSince1970(amzDate text: some StringProtocol) -> Int64? {
        let bytes = Array(text.utf8)
        guard bytes.count == 16, bytes[8] == UInt8(ascii: "T"), bytes[15] == UInt8(ascii: "Z"),
            let year = number(bytes[0..<4]), let month = number(bytes[4..<6]), let day = number(bytes[6..<8]),
            let hour = number(bytes[9..<11]), let minute = number(bytes[11..<13]),
            let second = number(bytes[13..<15]), hour < 24, minute < 60, second < 60
        else { return nil }
        guard let days = daysSince1970(year: year, month: month, day: day) else { return nil }
        return days * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }

    /// Whether `text` is a credential-scope date, `yyyyMMdd`, naming a real day.
    package static func isScopeDate(_ text: some StringProtocol) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 8, let year = number(bytes[0..<4]), let month = number(bytes[4..<6]),
            let day = number(bytes[6..<8])
        else { return false }
        return daysSince1970(year: year, month: month, day: day) != nil
    }

    // MARK: Helpers

    /// 0000-01-01T00:00:00Z and 9999-12-31T23:59:59Z.
    private static let minimumSeconds: Int64 = -62_167_219_200
    private static let maximumSeconds: Int64 = 253_402_300_799

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    static func encode(bytes: some Sequence<UInt8>, keepingSlash: Bool) -> String {
        var result: [UInt8] = []
        appendEncoded(bytes, keepingSlash: keepingSlash, to: &result)
        return String(decoding: result, as: UTF8.self)
    }

    private static func appendEncoded(_ bytes: some Sequence<UInt8>, keepingSlash: Bool, to result: inout [UInt8]) {
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                result.append(byte)
            case UInt8(ascii: "/") where keepingSlash:
                result.append(byte)
            default:
                result.append(UInt8(ascii: "%"))
                result.append(hexDigits[Int(byte >> 4)])
                result.append(hexDigits[Int(byte & 0x0F)])
            }
        }
    }

    /// The bytes of `encoded` with `%XX` escapes decoded (malformed ones kept as they are).
    private static func percentDecoded(_ encoded: some Collection<UInt8>, plusIsSpace: Bool) -> [UInt8] {
        let bytes = Array(encoded)
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.count, let high = hexValue(bytes[index + 1]),
                let low = hexValue(bytes[index + 2])
            {
                result.append(high << 4 | low)
                index += 3
            } else {
                result.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index += 1
            }
        }
        return result
    }

    /// The bytes of an even number of hex digits (either case), or `nil`.
    static func hexBytes(_ digits: some Collection<UInt8>) -> [UInt8]? {
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var high: UInt8?
        for digit in digits {
            guard let value = hexValue(digit) else { return nil }
            if let first = high {
                bytes.append(first << 4 | value)
                high = nil
            } else {
                high = value
            }
        }
        return bytes
    }

    /// The value of one hex digit, either case.
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Pairs of already-encoded names and values, sorted by name then value (byte order) and joined.
    private static func joinSorted(_ pairs: [(String, String)]) -> String {
        pairs.sorted { $0.0 != $1.0 ? $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) : $0.1.utf8.lexicographicallyPrecedes($1.1.utf8) }
            .map { "\($0.0)=\($0.1)" }
            .joined(separator: "&")
    }

    /// The value of ASCII decimal digits, or `nil` if any byte is not a digit.
    private static func number(_ bytes: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for byte in bytes {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    /// Days since 1970 of a date, or `nil` when the month or day does not exist.
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int64? {
        guard (1...12).contains(month), (1...31).contains(day) else { return nil }
        let days = BmobDateFormat.daysSince1970(year: year, month: month, day: day)
        // Days past the month's end roll over into the next month: a real date converts back unchanged.
        let civil = BmobDateFormat.civilDate(daysSince1970: days)
        guard civil.year == year, civil.month == month, civil.day == day else { return nil }
        return days
    }

    private static func digits(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
