import BmobWire

extension OIDCAuthDataValidator {
    /// Why a signed token's claims are not acceptable (issuer, audience, validity period), or `nil` when they are.
    ///
    /// - Parameter claims: The verified token's claims set.
    /// - Returns: A reason fit for the client, or `nil`.
    func refusal(of claims: [String: JSONValue]) -> String? {
        guard claims["iss"]?.stringValue == issuer else { return "the id token is from another issuer (iss)" }
        let audience: [String] =
            switch claims["aud"] {
            case .string(let value)?: [value]
            case .array(let values)?: values.compactMap(\.stringValue)
            default: []
            }
        guard audience.contains(where: audiences.contains) else { return "the id token is for another client (aud)" }

        let now = Double(clock.nowMilliseconds()) / 1000
        let leeway = Double(Self.leewaySeconds)
        guard let expiry = claims["exp"] else { return "the id token has no expiry (exp)" }
        guard let expiry = Self.seconds(expiry) else { return "the id token's exp is not a number" }
        guard now < expiry + leeway else { return "the id token has expired" }
        if let notBefore = claims["nbf"] {
            guard let notBefore = Self.seconds(notBefore) else { return "the id token's nbf is not a number" }
            guard notBefore <= now + leeway else { return "the id token is not valid yet (nbf)" }
        }
        if let issuedAt = claims["iat"] {
            guard let issuedAt = Self.seconds(issuedAt) else { return "the id token's iat is not a number" }
            guard issuedAt <= now + leeway else { return "the id token was issued in the future (iat)" }
        }
        return nil
    }

    /// A NumericDate claim (seconds since 1970, RFC 7519 §2) as a finite `Double`, or `nil` for anything else.
    private static func seconds(_ value: JSONValue) -> Double? {
        guard let seconds = value.doubleValue, seconds.isFinite else { return nil }
        return seconds
    }
}
