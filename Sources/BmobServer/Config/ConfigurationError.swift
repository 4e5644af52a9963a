/// A setting that could not be used, with a message naming it.
package struct ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    package var message: String

    package init(_ message: String) {
        self.message = message
    }

    package var description: String { message }
}
