/// A close status code (RFC 6455 §7.4). Any 16-bit value is representable; the registered ones are static
/// members, and ``isSendable`` says whether a close frame may carry it.
package struct WebSocketCloseCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The code as sent on the wire.
    package var rawValue: UInt16

    /// A code from its wire value.
    ///
    /// - Parameter rawValue: the 16-bit status code.
    package init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    /// The decimal code, safe to log.
    package var description: String { String(rawValue) }

    /// 1000: the purpose of the connection is fulfilled.
    package static let normalClosure = Self(rawValue: 1000)
    /// 1001: the endpoint is going away (server shutdown, page navigation).
    package static let goingAway = Self(rawValue: 1001)
    /// 1002: the peer broke the protocol.
    package static let protocolError = Self(rawValue: 1002)
    /// 1003: a data type the endpoint cannot accept.
    package static let unsupportedData = Self(rawValue: 1003)
    /// 1005: no status code was present; never sent on the wire.
    package static let noStatusReceived = Self(rawValue: 1005)
    /// 1006: the connection dropped without a close frame; never sent on the wire.
    package static let abnormalClosure = Self(rawValue: 1006)
    /// 1007: a message's data is not consistent with its type (text that is not UTF-8).
    package static let invalidPayloadData = Self(rawValue: 1007)
    /// 1008: the message violates the endpoint's policy.
    package static let policyViolation = Self(rawValue: 1008)
    /// 1009: a message is too big to process.
    package static let messageTooBig = Self(rawValue: 1009)
    /// 1010: the client expected the server to negotiate an extension.
    package static let mandatoryExtension = Self(rawValue: 1010)
    /// 1011: the server met an unexpected condition.
    package static let internalError = Self(rawValue: 1011)
    /// 1012: the service is restarting.
    package static let serviceRestart = Self(rawValue: 1012)
    /// 1013: try again later.
    package static let tryAgainLater = Self(rawValue: 1013)
    /// 1014: a gateway got an invalid response upstream.
    package static let badGateway = Self(rawValue: 1014)
    /// 1015: the TLS handshake failed; never sent on the wire.
    package static let tlsHandshakeFailure = Self(rawValue: 1015)

    /// Whether a close frame may carry this code: 1000–1014 except 1004, 1005 and 1006, or 3000–4999
    /// (registered and private use). Receiving any other code is a protocol error.
    package var isSendable: Bool {
        switch rawValue {
        case 1000...1003, 1007...1014, 3000...4999: true
        default: false
        }
    }
}
