import BmobCrypto

/// The name a file is uploaded with, checked: at most 255 UTF-8 bytes, no `/`, `\`, NUL or other control
/// characters, and a suffix after the last `.` of 1…16 ASCII letters or digits, which (lowercased) becomes the
/// key's extension.
package struct FileName: Sendable, Hashable {
    /// The name as the client gave it.
    package let value: String
    /// The suffix, lowercased.
    package let fileExtension: String

    /// The longest name in UTF-8 bytes.
    package static let maximumBytes = 255

    /// Why a name was refused.
    package enum Problem: Error, Sendable, Equatable {
        case empty, tooLong, forbiddenCharacter, missingSuffix
    }

    /// Checks `value`.
    package init(_ value: String) throws(Problem) {
        guard !value.isEmpty else { throw .empty }
        guard value.utf8.count <= Self.maximumBytes else { throw .tooLong }
        guard !value.unicodeScalars.contains(where: { $0 == "/" || $0 == "\\" || $0.value < 0x20 || $0.value == 0x7F }) else {
            throw .forbiddenCharacter
        }
        guard let dot = value.lastIndex(of: "."), dot != value.startIndex else { throw .missingSuffix }
        let suffix = value[value.index(after: dot)...].lowercased()
        guard FileKey.isExtension(suffix.utf8) else { throw .missingSuffix }
        self.value = value
        self.fileExtension = suffix
    }

    /// A name from a REST path segment (already percent-decoded): ASCII as it is; Bmob's clients base64 names
    /// that are not ASCII, so a segment without a suffix that is base64 of a UTF-8 name with one is decoded.
    /// A name with other non-ASCII characters is refused, as Bmob does.
    package static func fromPathSegment(_ segment: String) throws(Problem) -> FileName {
        if let plain = try? FileName(segment), segment.utf8.allSatisfy({ $0 < 0x80 }) { return plain }
        if let decoded = Base64.decode(Array(segment.utf8)) ?? Base64.decode(Array(segment.utf8), alphabet: .url),
            let text = String(validating: decoded, as: UTF8.self), let name = try? FileName(text)
        {
            return name
        }
        guard segment.utf8.allSatisfy({ $0 < 0x80 }) else { throw .forbiddenCharacter }
        return try FileName(segment)
    }
}
