/// The HTTP version of a request line. Only 1.0 and 1.1 are accepted by ``HTTPRequestDecoder``.
package struct HTTPVersion: Hashable, Sendable, CustomStringConvertible {
    package var major: Int
    package var minor: Int

    package init(major: Int, minor: Int) {
        self.major = major
        self.minor = minor
    }

    package static let http1_0 = Self(major: 1, minor: 0)
    package static let http1_1 = Self(major: 1, minor: 1)

    package var description: String { "HTTP/\(major).\(minor)" }
}
