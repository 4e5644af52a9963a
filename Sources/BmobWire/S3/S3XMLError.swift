/// Why an S3 XML document, or the message it should hold, was rejected.
///
/// Messages say what was wrong and what was expected, never the text a peer sent, so ``description`` is safe
/// to log and to return. ``offset`` is in UTF-8 bytes into the document, for syntax problems.
package struct S3XMLError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of problem.
    package enum Code: Sendable, Hashable, CaseIterable {
        /// The document is longer than ``S3XMLReader/maximumBytes``.
        case tooLarge
        /// Elements nest deeper than ``S3XMLReader/maximumDepth``.
        case tooDeep
        /// The document has more than ``S3XMLReader/maximumElements`` elements.
        case tooManyElements
        /// The document has a `<!DOCTYPE`, refused so that no entity can be declared.
        case doctypeNotAllowed
        /// The document is not valid UTF-8.
        case invalidUTF8
        /// The document holds a character XML 1.0 does not allow (a control character, U+FFFE, U+FFFF).
        case invalidCharacter
        /// An `&…;` reference is unknown, unterminated, or names a character XML does not allow.
        case invalidEntity
        /// The document is not well-formed XML.
        case malformed
        /// An end tag does not match its start tag.
        case mismatchedTag
        /// The root element is not the message expected.
        case unexpectedRoot
        /// A required element is missing.
        case missingElement
        /// An element's text is not a valid value (a number out of range, a boolean that is not one).
        case invalidValue
        /// The parts of a completion are not in strictly ascending part-number order.
        case invalidPartOrder
        /// A message lists more than ``S3CompleteMultipartUpload/maximumParts`` parts.
        case tooManyParts
    }

    /// The kind of problem.
    package var code: Code
    /// What was wrong and what was expected, without the position.
    package var message: String
    /// Where the problem was found, when known.
    package var offset: Int?

    /// Creates an error with a code, a message and an optional offset.
    package init(_ code: Code, _ message: String, offset: Int? = nil) {
        self.code = code
        self.message = message
        self.offset = offset
    }

    /// S3's error code for a request body with this problem: `InvalidPartOrder`, or `MalformedXML`.
    package var s3ErrorCode: String {
        code == .invalidPartOrder ? "InvalidPartOrder" : "MalformedXML"
    }

    /// The message followed by the position, when known.
    package var description: String {
        if let offset { "\(message) at \(offset)" } else { message }
    }
}
