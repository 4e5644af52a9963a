/// An HTTP request method. Any token is representable; the common ones are static members.
package struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    package var rawValue: String

    package init(rawValue: String) {
        self.rawValue = rawValue
    }

    package var description: String { rawValue }

    package static let get = Self(rawValue: "GET")
    package static let head = Self(rawValue: "HEAD")
    package static let post = Self(rawValue: "POST")
    package static let put = Self(rawValue: "PUT")
    package static let delete = Self(rawValue: "DELETE")
    package static let patch = Self(rawValue: "PATCH")
    package static let options = Self(rawValue: "OPTIONS")
}
