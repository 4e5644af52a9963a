package import BmobWire

/// What an upload answers: the name it was uploaded with, its URL and the provider (`{"filename","url","cdn"}`).
package struct StoredFileAnswer: Sendable, Equatable {
    package var filename: String
    package var url: String
    package var cdn: String

    package init(filename: String, url: String, cdn: String) {
        self.filename = filename
        self.url = url
        self.cdn = cdn
    }

    /// `{"filename","url","cdn"}`.
    package var json: JSONValue {
        ["filename": .string(filename), "url": .string(url), "cdn": .string(cdn)]
    }
}
