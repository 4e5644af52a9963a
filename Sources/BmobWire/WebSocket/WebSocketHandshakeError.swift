/// Why an opening handshake was refused: on the server, a request that is not a valid WebSocket upgrade;
/// on the client, a response that does not accept it. ``description`` quotes no header values.
package enum WebSocketHandshakeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The upgrade request's method is not GET (405).
    case methodNotGet
    /// The upgrade request is older than HTTP/1.1 (400).
    case httpVersionTooOld
    /// The `Upgrade` field does not name `websocket` (400 on the server).
    case missingUpgradeWebSocket
    /// The `Connection` field has no `upgrade` token (400 on the server).
    case missingConnectionUpgrade
    /// `Sec-WebSocket-Version` is missing or not 13 (426, naming version 13).
    case unsupportedVersion
    /// `Sec-WebSocket-Key` is missing, repeated, or not the base64 of 16 bytes (400).
    case invalidKey
    /// The server answered with this status instead of 101.
    case unexpectedStatus(Int)
    /// The server's `Sec-WebSocket-Accept` is missing or does not match the key.
    case acceptMismatch
    /// The server named an extension or subprotocol the client did not offer.
    case unexpectedNegotiation

    /// The response a server sends for this refusal: its status, and `Allow` or `Sec-WebSocket-Version`
    /// where RFC 9110 §15.5.6 and RFC 6455 §4.4 ask for them.
    package var response: HTTPResponseHead {
        switch self {
        case .methodNotGet:
            HTTPResponseHead(status: .methodNotAllowed, headers: ["Allow": "GET"])
        case .unsupportedVersion:
            HTTPResponseHead(
                status: HTTPStatus(code: 426, reasonPhrase: "Upgrade Required"),
                headers: ["Sec-WebSocket-Version": "13"])
        default:
            HTTPResponseHead(status: .badRequest)
        }
    }

    /// What was wrong, in a few words.
    package var description: String {
        switch self {
        case .methodNotGet: "WebSocket upgrade must use GET"
        case .httpVersionTooOld: "WebSocket upgrade needs HTTP/1.1"
        case .missingUpgradeWebSocket: "Upgrade field does not name websocket"
        case .missingConnectionUpgrade: "Connection field has no upgrade token"
        case .unsupportedVersion: "Sec-WebSocket-Version must be 13"
        case .invalidKey: "Sec-WebSocket-Key must be the base64 of 16 bytes"
        case .unexpectedStatus(let status): "server answered \(status) instead of 101"
        case .acceptMismatch: "Sec-WebSocket-Accept does not match the key"
        case .unexpectedNegotiation: "server chose an extension or subprotocol that was not offered"
        }
    }
}
