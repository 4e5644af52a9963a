/// The name of a server function, `module:export` (`notes:list`, `_User:get`), in canonical form (`sync.md` §1.1).
///
/// Clients canonicalize as Convex does: a trailing `.js` on the module is dropped and a name without a colon means
/// the module's `default` export. The module is 1–128 characters of `[A-Za-z0-9_./-]` that does not start with
/// `/` or `.` and does not end in `.js` once one `.js` is dropped; the export 1–64 of `[A-Za-z0-9_]`.
package struct SyncFunctionPath: Sendable, Hashable, CustomStringConvertible {
    /// The canonical `module:export` text.
    package let rawValue: String
    /// The part before the colon.
    package var module: Substring { rawValue[..<colon] }
    /// The part after the colon.
    package var export: Substring { rawValue[rawValue.index(after: colon)...] }
    private let colon: String.Index

    /// The longest module name.
    package static let maximumModuleLength = 128
    /// The longest export name.
    package static let maximumExportLength = 64

    /// Canonicalizes and validates `text`.
    ///
    /// - Throws: ``SyncProtocolError`` with ``SyncProtocolError/Kind/invalidFunctionPath``.
    package init(validating text: String) throws(SyncProtocolError) {
        var module: Substring
        var export: Substring
        if let colon = text.firstIndex(of: ":") {
            module = text[..<colon]
            export = text[text.index(after: colon)...]
        } else {
            module = text[...]
            export = "default"
        }
        if module.hasSuffix(".js") { module = module.dropLast(3) }
        // One `.js` is dropped; a module still ending in `.js` would lose another when its canonical name is read
        // again, so it has no canonical name.
        guard !module.isEmpty, !module.hasSuffix(".js"), module.utf8.count <= Self.maximumModuleLength,
            module.utf8.allSatisfy(Self.isModuleByte), module.first != "/", module.first != "."
        else {
            throw SyncProtocolError(
                .invalidFunctionPath,
                "a function's module is 1 to \(Self.maximumModuleLength) characters of letters, digits, _ . / -")
        }
        guard !export.isEmpty, export.utf8.count <= Self.maximumExportLength, export.utf8.allSatisfy(Self.isExportByte)
        else {
            throw SyncProtocolError(
                .invalidFunctionPath, "a function's export is 1 to \(Self.maximumExportLength) letters, digits or _")
        }
        let canonical = "\(module):\(export)"
        rawValue = canonical
        colon = canonical.firstIndex(of: ":")!
    }

    package var description: String { rawValue }

    package static func == (lhs: Self, rhs: Self) -> Bool { lhs.rawValue == rhs.rawValue }
    package func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

    private static func isExportByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "_"):
            true
        default: false
        }
    }

    private static func isModuleByte(_ byte: UInt8) -> Bool {
        isExportByte(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "-")
    }
}
