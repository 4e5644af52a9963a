/// What a cloud function throws to answer a Bmob error of its own choosing (`{"code": code, "error": message}`).
public struct CloudFunctionError: Error, Sendable {
    /// The code the caller receives.
    public var code: Int
    /// The message the caller receives.
    public var message: String

    /// An error answering `code` with `message`.
    public init(code: Int, message: String) {
        self.code = code
        self.message = message
    }
}
