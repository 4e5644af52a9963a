import BmobCore
import BmobWire

/// What the server answers for a stored file (`/8/files`, `/8/savecdnupload`): `{filename, url, cdn}`.
struct StoredFile: Sendable, Equatable {
    /// The name the server recorded.
    var filename: String
    /// Where the file can be downloaded.
    var url: String
    /// The storage provider's name (`local`, `s3`, …).
    var cdn: String

    /// Reads an answer's `data`; `filename` falls back to the name sent when the answer leaves it out.
    ///
    /// - Throws: ``BmobError/jsonParsingFailed`` without a `url`.
    init(json: JSONValue, sentFilename: String) throws(BmobError) {
        guard let url = json["url"]?.stringValue, !url.isEmpty else { throw .jsonParsingFailed }
        self.url = url
        self.filename = json["filename"]?.stringValue ?? sentFilename
        self.cdn = json["cdn"]?.stringValue ?? json["group"]?.stringValue ?? ""
    }
}
