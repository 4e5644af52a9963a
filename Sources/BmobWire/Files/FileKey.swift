import BmobCrypto

/// A stored file's key, `yyyy/MM/dd/<32 lowercase hex>.<ext>`, which is also its URL's path: the day its upload
/// began (UTC), a random 128-bit name and the extension of the name it was uploaded with.
///
/// Parsing accepts exactly that shape, so a key taken from a request (a delete, a download's path, a
/// registration) can never name anything outside the storage folder.
package struct FileKey: Sendable, Hashable, CustomStringConvertible {
    /// The key's text.
    package let rawValue: String

    /// The longest extension a key carries.
    package static let maximumExtensionLength = 16

    /// Parses `text` (a key, with or without a leading `/`); `nil` unless it has the key's exact shape.
    package init?(_ text: some StringProtocol) {
        var bytes = Array(text.utf8)
        if bytes.first == UInt8(ascii: "/") { bytes.removeFirst() }
        // yyyy/MM/dd/ = 11 bytes, 32 hex, ".", 1…16 extension bytes.
        guard bytes.count >= 11 + 32 + 2, bytes.count <= 11 + 32 + 1 + Self.maximumExtensionLength else { return nil }
        func digits(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = digits(0..<4), year >= 1970, bytes[4] == UInt8(ascii: "/"),
            let month = digits(5..<7), (1...12).contains(month), bytes[7] == UInt8(ascii: "/"),
            let day = digits(8..<10), (1...31).contains(day), bytes[10] == UInt8(ascii: "/")
        else { return nil }
        let hex = bytes[11..<43]
        guard Hex.isLowercase(hex), bytes[43] == UInt8(ascii: ".") else { return nil }
        let fileExtension = bytes[44...]
        guard Self.isExtension(fileExtension) else { return nil }
        rawValue = String(decoding: bytes, as: UTF8.self)
    }

    /// A new key for a file uploaded on `year`-`month`-`day` (UTC) with `name` (32 lowercase hex) and
    /// `fileExtension` (lowercase letters and digits).
    package init?(year: Int, month: Int, day: Int, name: String, fileExtension: String) {
        let date = "\(BmobDateFormat.pad(year, 4))/\(BmobDateFormat.pad(month, 2))/\(BmobDateFormat.pad(day, 2))"
        self.init("\(date)/\(name).\(fileExtension)")
    }

    /// The key of a file URL or URL path (`https://host/2026/12/02/….jpg`, `/2026/…`): its path without the
    /// leading `/`, the query and fragment dropped; `nil` when that is not a key.
    package init?(urlOrPath text: String) {
        var path = Substring(text)
        if let colon = path.firstIndex(of: ":"), path[colon...].hasPrefix("://") {
            let afterScheme = path[path.index(colon, offsetBy: 3)...]
            guard let slash = afterScheme.firstIndex(of: "/") else { return nil }
            path = afterScheme[slash...]
        }
        if let end = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = path[..<end] }
        self.init(path)
    }

    /// The extension, lowercase, without the dot.
    package var fileExtension: Substring {
        rawValue[rawValue.index(after: rawValue.lastIndex(of: ".")!)...]
    }

    package var description: String { rawValue }

    /// Whether `bytes` is an extension a key may carry: 1…16 lowercase ASCII letters or digits.
    package static func isExtension(_ bytes: some Collection<UInt8>) -> Bool {
        (1...maximumExtensionLength).contains(bytes.count)
            && bytes.allSatisfy { ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z")) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) }
    }
}
