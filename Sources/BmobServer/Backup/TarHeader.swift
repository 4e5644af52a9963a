/// One POSIX ustar header block (512 bytes): the only kinds a backup holds are regular files and folders.
///
/// Sizes are 11 octal digits, so an entry is below 8 GiB; names are up to 100 bytes, or 255 split at a `/`
/// into the 155-byte prefix field and the name field.
package struct TarHeader: Equatable, Sendable {
    /// A regular file or a folder; every other type flag (links, devices, GNU and pax extensions) is refused.
    package enum Kind: Sendable {
        case file, directory
    }

    /// ustar's block: headers are one, contents are padded to whole ones.
    package static let blockSize = 512
    /// The largest size the 11 octal digits of the size field hold.
    package static let maximumSize = (1 << 33) - 1

    /// The entry's path, `/`-separated, relative.
    package var name: String
    /// The content's bytes (0 for a folder).
    package var size: Int
    /// A file or a folder.
    package var kind: Kind
    /// Seconds since 1970.
    package var modificationTime: Int

    /// A header for an entry.
    package init(name: String, size: Int, kind: Kind = .file, modificationTime: Int) {
        self.name = name
        self.size = size
        self.kind = kind
        self.modificationTime = modificationTime
    }

    /// The header block.
    ///
    /// - Throws: ``BackupError`` when the name or the size does not fit ustar's fields.
    package func encoded() throws(BackupError) -> [UInt8] {
        guard size >= 0, size <= Self.maximumSize else {
            throw BackupError("\(name): \(size) bytes is more than an archive entry holds (8 GiB)")
        }
        let (prefix, last) = try Self.split(name)
        var block = [UInt8](repeating: 0, count: Self.blockSize)
        func put(_ bytes: some Collection<UInt8>, at offset: Int) {
            for (index, byte) in bytes.enumerated() { block[offset + index] = byte }
        }
        func octal(_ value: Int, digits: Int) -> [UInt8] {
            let text = String(value, radix: 8)
            return Array((String(repeating: "0", count: max(0, digits - text.count)) + text).utf8)
        }
        put(last.utf8, at: 0)
        put(octal(kind == .directory ? 0o755 : 0o644, digits: 7), at: 100)
        put(octal(0, digits: 7), at: 108)
        put(octal(0, digits: 7), at: 116)
        put(octal(kind == .directory ? 0 : size, digits: 11), at: 124)
        put(octal(max(0, min(modificationTime, Self.maximumSize)), digits: 11), at: 136)
        block[156] = kind == .directory ? UInt8(ascii: "5") : UInt8(ascii: "0")
        put("ustar\u{0}00".utf8, at: 257)
        put(prefix.utf8, at: 345)
        put(octal(Self.checksum(block), digits: 6) + [0, 0x20], at: 148)
        return block
    }

    /// Reads a header block; `nil` for an all-zero block (the end of the archive).
    ///
    /// - Throws: ``BackupError`` for a block that is not a ustar header, a wrong checksum, or an entry type other
    ///   than a regular file or a folder.
    package static func decode(_ block: [UInt8]) throws(BackupError) -> TarHeader? {
        precondition(block.count == blockSize)
        if block.allSatisfy({ $0 == 0 }) { return nil }
        guard block[257..<262].elementsEqual("ustar".utf8) else {
            throw BackupError("not a ustar archive (a header has no 'ustar' magic)")
        }
        guard let stored = octalValue(block[148..<156]), stored == checksum(block) else {
            throw BackupError("an archive header's checksum is wrong: the archive is damaged")
        }
        let name = try text(block[0..<100])
        let prefix = try text(block[345..<500])
        let fullName = prefix.isEmpty ? name : prefix + "/" + name
        guard let size = octalValue(block[124..<136]), size <= maximumSize else {
            throw BackupError("\(fullName): the archive header's size is not a number")
        }
        let kind: Kind
        switch block[156] {
        case UInt8(ascii: "0"), 0: kind = .file
        case UInt8(ascii: "5"): kind = .directory
        default:
            throw BackupError("\(fullName): entries of type '\(Character(Unicode.Scalar(block[156])))' (links, devices, extensions) are refused")
        }
        return TarHeader(name: fullName, size: size, kind: kind, modificationTime: octalValue(block[136..<148]) ?? 0)
    }

    /// The sum of the block's bytes with the checksum field counted as spaces.
    private static func checksum(_ block: [UInt8]) -> Int {
        var sum = 0
        for (index, byte) in block.enumerated() {
            sum += (148..<156).contains(index) ? 0x20 : Int(byte)
        }
        return sum
    }

    /// An octal field: digits, optionally led by spaces and ended by NUL or space.
    private static func octalValue(_ field: ArraySlice<UInt8>) -> Int? {
        var value = 0
        var seenDigit = false
        for byte in field {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "7"):
                value = value * 8 + Int(byte - UInt8(ascii: "0"))
                seenDigit = true
                if value > maximumSize { return nil }
            case 0, 0x20:
                if seenDigit { return value }
            default:
                return nil
            }
        }
        return seenDigit ? value : nil
    }

    /// A NUL-ended name field, which must be UTF-8.
    private static func text(_ field: ArraySlice<UInt8>) throws(BackupError) -> String {
        let bytes = field.prefix { $0 != 0 }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw BackupError("an archive entry's name is not UTF-8")
        }
        return text
    }

    /// `name` as ustar's prefix and name fields.
    private static func split(_ name: String) throws(BackupError) -> (prefix: String, name: String) {
        let bytes = Array(name.utf8)
        if bytes.count <= 100 { return ("", name) }
        // The prefix ends at a `/` that leaves at most 100 bytes after it and at most 155 before it.
        for index in stride(from: min(bytes.count - 1, 155), through: 1, by: -1) where bytes[index] == UInt8(ascii: "/") {
            if bytes.count - index - 1 <= 100 && bytes.count - index - 1 > 0 {
                return (String(decoding: bytes[..<index], as: UTF8.self), String(decoding: bytes[(index + 1)...], as: UTF8.self))
            }
        }
        throw BackupError("\(name): the path is too long for an archive entry (255 bytes, split at a '/')")
    }
}
