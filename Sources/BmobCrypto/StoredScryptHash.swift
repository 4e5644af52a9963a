/// Our stored password format, `$scrypt$ln=15,r=8,p=1$<salt>$<key>`, with salt and key in standard base64
/// without padding.
struct StoredScryptHash {
    /// The cost parameters, always ``ScryptParameters/isSupported``.
    let parameters: ScryptParameters
    /// The salt, 8…64 bytes.
    let salt: [UInt8]
    /// The derived key, 16…64 bytes.
    let key: [UInt8]

    /// The scheme's prefix.
    static let prefix = "$scrypt$"

    /// A hash from its parts; nothing is checked.
    init(parameters: ScryptParameters, salt: [UInt8], key: [UInt8]) {
        self.parameters = parameters
        self.salt = salt
        self.key = key
    }

    /// Parses `string`, or returns `nil` unless it is exactly in our format (canonical numbers and base64) with
    /// supported parameters and salt and key lengths in range.
    init?(_ string: String) {
        let fields = string.utf8.split(separator: UInt8(ascii: "$"), omittingEmptySubsequences: false)
        guard fields.count == 5, fields[0].isEmpty, fields[1].elementsEqual("scrypt".utf8) else { return nil }
        let settings = fields[2].split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
        guard settings.count == 3,
            let logN = Self.number(settings[0], named: "ln"),
            let r = Self.number(settings[1], named: "r"),
            let p = Self.number(settings[2], named: "p")
        else { return nil }
        let parameters = ScryptParameters(logN: logN, r: r, p: p)
        guard parameters.isSupported,
            let salt = Base64.decodeUnpadded(fields[3], alphabet: .standard), (8...64).contains(salt.count),
            let key = Base64.decodeUnpadded(fields[4], alphabet: .standard), (16...64).contains(key.count)
        else { return nil }
        self.init(parameters: parameters, salt: salt, key: key)
    }

    /// The string form.
    var encoded: String {
        let settings = "ln=\(parameters.logN),r=\(parameters.r),p=\(parameters.p)"
        let encodedSalt = Base64.encodeString(salt, padding: false)
        return "\(Self.prefix)\(settings)$\(encodedSalt)$\(Base64.encodeString(key, padding: false))"
    }

    /// The value of `name=digits`, where digits are 1…4 ASCII digits without a leading zero.
    private static func number(_ field: Substring.UTF8View.SubSequence, named name: String) -> Int? {
        let name = Array(name.utf8) + [UInt8(ascii: "=")]
        guard field.starts(with: name) else { return nil }
        let digits = field.dropFirst(name.count)
        guard (1...4).contains(digits.count),
            digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            digits.count == 1 || digits.first != UInt8(ascii: "0")
        else { return nil }
        return digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }
}
