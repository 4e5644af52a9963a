/// A failed step of the live chat test, with what the server answered.
struct ChatFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
