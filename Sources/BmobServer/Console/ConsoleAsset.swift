import BmobCrypto

/// One file of the web console (`/console/<name>`), compiled into the binary so that the console needs no build
/// step, no resource bundle and no network: `scripts/embed-console.sh` writes ``embedded`` from
/// `Sources/BmobServer/Console/Assets/`, and a test fails when the two differ.
package struct ConsoleAsset: Sendable {
    /// The file's name under `/console/` (no folders).
    package var name: String
    /// The `Content-Type` it is served with.
    package var contentType: String
    /// The file's bytes.
    package var body: [UInt8]
    /// A strong validator of ``body`` (its SHA-256, quoted), so a browser revalidates with `If-None-Match`.
    package var etag: String

    /// An asset named `name` holding `text`, typed by its extension.
    package init(name: String, text: String) {
        self.name = name
        self.body = Array(text.utf8)
        self.contentType = Self.contentType(of: name)
        self.etag = "\"" + String(SHA256.hex(body).prefix(32)) + "\""
    }

    /// The content type of a console file name by its extension (the console ships only these kinds).
    package static func contentType(of name: String) -> String {
        if name.hasSuffix(".html") { return "text/html; charset=utf-8" }
        if name.hasSuffix(".css") { return "text/css; charset=utf-8" }
        if name.hasSuffix(".js") { return "text/javascript; charset=utf-8" }
        if name.hasSuffix(".svg") { return "image/svg+xml" }
        return "application/octet-stream"
    }

    /// The embedded asset named `name`, if there is one; any other name (folders, `..`, encodings) is unknown.
    package static func named(_ name: String) -> ConsoleAsset? {
        byName[name]
    }

    private static let byName: [String: ConsoleAsset] = Dictionary(
        uniqueKeysWithValues: embedded.map { ($0.name, $0) })
}
