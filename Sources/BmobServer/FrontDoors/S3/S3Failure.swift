/// An S3 error the endpoint answers.
struct S3Failure: Error {
    var code: String
    var status: Int
    var message: String

    init(_ code: String, status: Int, _ message: String) {
        self.code = code
        self.status = status
        self.message = message
    }
}
