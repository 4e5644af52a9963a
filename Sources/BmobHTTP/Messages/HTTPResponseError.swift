/// An error that knows the response it should become. Anything else a handler throws is answered as an
/// internal error (500) without details.
package protocol HTTPResponseError: Error {
    /// The response sent for this error.
    var response: HTTPResponse { get }
}
