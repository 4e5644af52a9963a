/// A Pusher Channels error and close code (protocol 7, `pusher.md` §2.3): the `code` of a `pusher:error`
/// frame and the WebSocket close status sent after it.
///
/// Any 16-bit value is representable; the documented ones are static members. The range says what a client
/// should do next (``action``): 4000–4099 not reconnect unchanged, 4100–4199 back off, 4200–4299 reconnect at
/// once, 4300–4399 other errors.
///
/// ## Topics
/// ### Refused (4000–4099)
/// - ``sslOnly``
/// - ``applicationDoesNotExist``
/// - ``applicationDisabled``
/// - ``overConnectionQuota``
/// - ``pathNotFound``
/// - ``invalidVersionStringFormat``
/// - ``unsupportedProtocolVersion``
/// - ``noProtocolVersionSupplied``
/// - ``connectionUnauthorized``
/// ### Back off (4100–4199)
/// - ``overCapacity``
/// ### Reconnect immediately (4200–4299)
/// - ``genericReconnectImmediately``
/// - ``pongNotReceived``
/// - ``closedAfterInactivity``
/// ### Other (4300–4399)
/// - ``clientEventRejected``
/// - ``serverError``
package struct PusherCloseCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// What a client should do after a close with a code, by its range.
    package enum Action: Sendable, Hashable {
        /// 4000–4099: do not reconnect with the same settings (stop and report).
        case refused
        /// 4100–4199: reconnect after backing off.
        case backoff
        /// 4200–4299: reconnect at once.
        case immediate
        /// Anything else, including 4300–4399 (pusher-js stops, pusher-websocket-swift and Bird back off).
        case other
    }

    /// The code as sent in `pusher:error` data and in the close frame.
    package var rawValue: UInt16

    /// A code from its wire value.
    ///
    /// - Parameter rawValue: the 16-bit code.
    package init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    /// The decimal code, safe to log.
    package var description: String { String(rawValue) }

    /// The code as a WebSocket close status, to close the connection with after the `pusher:error` frame.
    package var webSocketCloseCode: WebSocketCloseCode { WebSocketCloseCode(rawValue: rawValue) }

    /// What a client should do after this code, by its range.
    package var action: Action {
        switch rawValue {
        case 4000...4099: .refused
        case 4100...4199: .backoff
        case 4200...4299: .immediate
        default: .other
        }
    }

    /// A short English meaning of a documented code, or of its range for others; safe to send as a message.
    package var meaning: String {
        switch rawValue {
        case 4000: "SSL only: use wss"
        case 4001: "Application does not exist"
        case 4003: "Application disabled"
        case 4004: "Application is over its connection quota"
        case 4005: "Path not found"
        case 4006: "Invalid version string format"
        case 4007: "Unsupported protocol version"
        case 4008: "No protocol version supplied"
        case 4009: "Connection is unauthorized"
        case 4100: "Over capacity"
        case 4200: "Generic reconnect immediately"
        case 4201: "Pong reply not received"
        case 4202: "Closed after inactivity"
        case 4301: "Client event rejected"
        case 4302: "Server error"
        case 4000...4099: "Connection refused"
        case 4100...4199: "Try again later"
        case 4200...4299: "Reconnect"
        default: "Error"
        }
    }

    /// 4000: the application only accepts TLS connections.
    package static let sslOnly = Self(rawValue: 4000)
    /// 4001: no application has the key in the path (send before closing an unknown app key).
    package static let applicationDoesNotExist = Self(rawValue: 4001)
    /// 4003: the application is disabled.
    package static let applicationDisabled = Self(rawValue: 4003)
    /// 4004: the application has reached its connection quota.
    package static let overConnectionQuota = Self(rawValue: 4004)
    /// 4005: the path is not `/app/{key}`.
    package static let pathNotFound = Self(rawValue: 4005)
    /// 4006: the `version` query parameter is malformed.
    package static let invalidVersionStringFormat = Self(rawValue: 4006)
    /// 4007: the `protocol` query parameter names a version the server does not speak (not 6 or 7).
    package static let unsupportedProtocolVersion = Self(rawValue: 4007)
    /// 4008: no `protocol` query parameter.
    package static let noProtocolVersionSupplied = Self(rawValue: 4008)
    /// 4009: the connection is not authorized: a bad signin, a missed signin deadline, or the user's
    /// connections terminated through the HTTP API.
    package static let connectionUnauthorized = Self(rawValue: 4009)
    /// 4100: the server is over capacity; clients back off.
    package static let overCapacity = Self(rawValue: 4100)
    /// 4200: close and reconnect at once, for example on a graceful server shutdown.
    package static let genericReconnectImmediately = Self(rawValue: 4200)
    /// 4201: the server pinged and no pong came back in time.
    package static let pongNotReceived = Self(rawValue: 4201)
    /// 4202: closed after a period of inactivity.
    package static let closedAfterInactivity = Self(rawValue: 4202)
    /// 4301: a client event was rejected (rate limit, client events disabled, name or payload too big).
    package static let clientEventRejected = Self(rawValue: 4301)
    /// 4302: the server failed (soketi's use; not in Pusher's table).
    package static let serverError = Self(rawValue: 4302)
}
