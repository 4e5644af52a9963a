/// A command line that cannot run; printed with the command's usage, exit status 2.
struct UsageError: Error, CustomStringConvertible {
    var message: String

    init(_ message: String) {
        self.message = message
    }

    var description: String { message }
}
