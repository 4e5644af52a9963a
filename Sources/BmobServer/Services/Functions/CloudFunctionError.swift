/// What a cloud function throws to answer a Bmob error of its own choosing (`{"code": code, "error": message}`).
package struct CloudFunctionError: Error, Sendable {
    /// The code the caller receives.
    package var code: Int
    /// The message the caller receives.
    package var message: String

    /// An error answering `code` with `message`.
    package init(code: Int, message: String) {
        self.code = code
        self.message = message
    }
}
