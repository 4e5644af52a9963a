/// A request body that could not be decoded, with the Bmob code to answer it with: a batch element (112, 113,
/// 114), a native `/8/` body or header (107, 118, 401, …), or a query inside either (102, 103, 117, 601).
///
/// Messages name fields and what was expected, never the values a client sent (no keys, tokens or data), so
/// ``description`` is safe to log and to send back as the error text.
package struct BmobRequestError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The Bmob code for the response.
    package var code: BmobErrorCode
    /// What was wrong and what was expected.
    package var message: String

    /// Creates an error with a code and a message.
    package init(_ code: BmobErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }

    /// A query problem, with the query parser's code and its positioned message.
    package init(query error: QueryParseError) {
        self.init(error.code, error.description)
    }

    /// A native body that could not be opened: 107, with what was wrong.
    package init(envelope error: NativeEnvelopeError) {
        switch error {
        case .notBase64: self.init(.invalidJSON, "the body is not base64 text")
        case .undecryptable: self.init(.invalidJSON, "the body does not decrypt with this key")
        case .notJSON(let detail): self.init(.invalidJSON, "the decrypted body is not a JSON object: \(detail)")
        }
    }

    /// The message.
    package var description: String { message }
}
