import BmobHTTP
import BmobWire

extension BmobAPIError {
    /// The answer to a request that is not a valid WebSocket upgrade: the handshake error's status (and its
    /// headers, such as `Sec-WebSocket-Version`) with Bmob's `{"code","error"}` body.
    static func refusedUpgrade(_ error: WebSocketHandshakeError) -> HTTPResponse {
        var answer = body(status: error.response.status, code: error.response.status.code, message: error.description)
        for field in error.response.headers { answer.headers.add(name: field.name, value: field.value) }
        return answer
    }
}
