import BmobServer
import BmobTesting
import BmobWire
import Foundation
import Testing

/// OpenID Connect id tokens against ``OIDCAuthDataValidator``: tokens signed once with Python (see
/// ``OIDCFixtures``), checked at a fixed time inside their validity window.
@Suite struct OIDCAuthDataValidatorTests {
    /// A key server for `jwksURL` tests: answers with its current body, counts fetches, fails without a body.
    actor KeyServer {
        /// The set it answers with; `nil` makes fetches fail.
        var body: String?
        /// How long each answer takes.
        var delay: Duration = .zero
        /// Fetches so far.
        private(set) var fetchCount = 0
        /// The URLs asked for.
        private(set) var urls: [URL] = []

        init(body: String?) {
            self.body = body
        }

        /// Changes the answer.
        func serve(_ body: String?, delay: Duration = .zero) {
            self.body = body
            self.delay = delay
        }

        /// One fetch.
        func answer(_ url: URL) async throws -> [UInt8] {
            fetchCount += 1
            urls.append(url)
            if delay > .zero { try await Task.sleep(for: delay) }
            guard let body else { throw URLError(.cannotConnectToHost) }
            return Array(body.utf8)
        }

        /// A fetcher that asks this server.
        nonisolated var fetcher: OIDCKeySetFetcher {
            OIDCKeySetFetcher { url in try await self.answer(url) }
        }
    }

    /// The provider's settings with inline keys.
    private static func settings(jwks: String = OIDCFixtures.jwksK1, audience: JSONValue? = nil) throws -> [String:
        JSONValue]
    {
        [
            "issuer": .string(OIDCFixtures.issuer),
            "audience": audience ?? .string(OIDCFixtures.audience),
            "jwks": try JSONParser.parse(jwks),
        ]
    }

    /// The provider's settings with a key set URL.
    private static let urlSettings: [String: JSONValue] = [
        "issuer": .string(OIDCFixtures.issuer),
        "audience": .string(OIDCFixtures.audience),
        "jwksURL": "https://id.example.com/.well-known/jwks.json",
    ]

    private static func validator(
        jwks: String = OIDCFixtures.jwksK1, audience: JSONValue? = nil, now: Int64 = OIDCFixtures.now
    ) throws -> OIDCAuthDataValidator {
        try OIDCAuthDataValidator(settings: settings(jwks: jwks, audience: audience), clock: .fixed(now))
    }

    /// The account id, or the 208 error's message.
    private static func outcome(
        _ validator: OIDCAuthDataValidator, _ authData: [String: JSONValue]
    ) async -> Result<String, BmobAPIError> {
        do {
            return .success(try await validator.validate(platform: "oidc", authData: authData))
        } catch let error as BmobAPIError {
            return .failure(error)
        } catch {
            Issue.record("not a BmobAPIError: \(error)")
            return .failure(BmobAPIError(BmobErrorCode(-1), "\(error)"))
        }
    }

    private static func outcome(_ validator: OIDCAuthDataValidator, token: String) async -> Result<String, BmobAPIError>
    {
        await outcome(validator, ["id_token": .string(token)])
    }

    /// The 208 error `reason` makes.
    private static func refused(_ reason: String) -> Result<String, BmobAPIError> {
        .failure(BmobAPIError(.authDataError, "authData.oidc: \(reason)"))
    }

    // MARK: - Accepted tokens

    @Test("a valid token answers its sub, under id_token, identityToken or token")
    func valid() async throws {
        let validator = try Self.validator()
        #expect(await Self.outcome(validator, token: OIDCFixtures.valid) == .success("user-42"))
        #expect(await Self.outcome(validator, ["identityToken": .string(OIDCFixtures.valid)]) == .success("user-42"))
        #expect(await Self.outcome(validator, ["token": .string(OIDCFixtures.otherMembers)]) == .success("user-7"))
        // id_token comes first; other members (an id the client claims, an access token) are ignored.
        let both: [String: JSONValue] = [
            "id_token": .string(OIDCFixtures.valid), "token": .string(OIDCFixtures.otherMembers), "id": "user-7",
        ]
        #expect(await Self.outcome(validator, both) == .success("user-42"))
    }

    @Test("expiry, not-before and issued-at are checked with 60 s of leeway")
    func validityWindow() async throws {
        let validator = try Self.validator()
        #expect(await Self.outcome(validator, token: OIDCFixtures.expired) == Self.refused("the id token has expired"))
        #expect(await Self.outcome(validator, token: OIDCFixtures.expiredWithinLeeway) == .success("user-42"))
        #expect(
            await Self.outcome(validator, token: OIDCFixtures.notYetValid)
                == Self.refused("the id token is not valid yet (nbf)"))
        #expect(
            await Self.outcome(validator, token: OIDCFixtures.issuedInFuture)
                == Self.refused("the id token was issued in the future (iat)"))
        // The valid token expires an hour after `now`: fine 59 minutes later, refused once the leeway is past.
        let later = try Self.validator(now: OIDCFixtures.now + 3_659_000)
        #expect(await Self.outcome(later, token: OIDCFixtures.valid) == .success("user-42"))
        let tooLate = try Self.validator(now: OIDCFixtures.now + 3_660_000)
        #expect(await Self.outcome(tooLate, token: OIDCFixtures.valid) == Self.refused("the id token has expired"))
        // Its nbf is 100 s before `now`: 160 s before `now` is within the leeway, 161 s is not.
        let early = try Self.validator(now: OIDCFixtures.now - 160_000)
        #expect(await Self.outcome(early, token: OIDCFixtures.valid) == .success("user-42"))
        let tooEarly = try Self.validator(now: OIDCFixtures.now - 161_000)
        #expect(
            await Self.outcome(tooEarly, token: OIDCFixtures.valid)
                == Self.refused("the id token is not valid yet (nbf)"))
    }

    @Test("exp is required and must be a number; one beyond Int64 is still a number")
    func expiryClaim() async throws {
        let validator = try Self.validator()
        #expect(
            await Self.outcome(validator, token: OIDCFixtures.missingExp)
                == Self.refused("the id token has no expiry (exp)"))
        #expect(
            await Self.outcome(validator, token: OIDCFixtures.stringExp)
                == Self.refused("the id token's exp is not a number"))
        #expect(await Self.outcome(validator, token: OIDCFixtures.hugeExp) == .success("user-42"))
    }

    @Test("the issuer must match and the audience, a string or an array, must name a configured client")
    func issuerAndAudience() async throws {
        let validator = try Self.validator()
        #expect(
            await Self.outcome(validator, token: OIDCFixtures.wrongIssuer)
                == Self.refused("the id token is from another issuer (iss)"))
        #expect(
            await Self.outcome(validator, token: OIDCFixtures.wrongAudience)
                == Self.refused("the id token is for another client (aud)"))
        #expect(await Self.outcome(validator, token: OIDCFixtures.audienceArray) == .success("user-42"))
        #expect(
            await Self.outcome(validator, token: OIDCFixtures.audienceArrayWrong)
                == Self.refused("the id token is for another client (aud)"))
        // Several configured clients: a token for any of them is accepted.
        let several = try Self.validator(audience: ["ios-app", "other-client"])
        #expect(await Self.outcome(several, token: OIDCFixtures.wrongAudience) == .success("user-42"))
        #expect(await Self.outcome(several, token: OIDCFixtures.audienceArrayWrong) == .success("user-42"))
        #expect(
            await Self.outcome(several, token: OIDCFixtures.valid)
                == Self.refused("the id token is for another client (aud)"))
    }

    @Test("sub is required and non-empty")
    func subject() async throws {
        let validator = try Self.validator()
        #expect(
            await Self.outcome(validator, token: OIDCFixtures.missingSub) == Self.refused("the id token has no sub"))
        #expect(await Self.outcome(validator, token: OIDCFixtures.emptySub) == Self.refused("the id token has no sub"))
    }

    // MARK: - Signatures and algorithms

    @Test("only RS256 is accepted: none, HS256 keyed with the public key, and RS512 are refused")
    func algorithms() async throws {
        let validator = try Self.validator()
        for token in [OIDCFixtures.algNone, OIDCFixtures.algHS256, OIDCFixtures.algRS512] {
            #expect(
                await Self.outcome(validator, token: token) == Self.refused("the id token must be signed with RS256"))
        }
        // A token stating critical header extensions is refused even when its signature is good.
        #expect(
            await Self.outcome(validator, token: OIDCFixtures.crit)
                == Self.refused("the id token is malformed: the header lists critical extensions (crit)"))
    }

    @Test("tampered payloads, altered, truncated and foreign signatures are refused")
    func signatures() async throws {
        let validator = try Self.validator(jwks: OIDCFixtures.jwksK1K2)
        for token in [
            OIDCFixtures.tamperedPayload, OIDCFixtures.badSignature, OIDCFixtures.truncatedSignature,
            OIDCFixtures.k2UnderK1Kid,
        ] {
            #expect(
                await Self.outcome(validator, token: token) == Self.refused("the id token's signature is not valid"))
        }
        #expect(await Self.outcome(validator, token: OIDCFixtures.signedByK2) == .success("user-42"))
        #expect(await Self.outcome(validator, token: OIDCFixtures.valid) == .success("user-42"))
    }

    @Test("kid picks the key; a token without kid needs a set of exactly one key")
    func keySelection() async throws {
        let one = try Self.validator()
        #expect(await Self.outcome(one, token: OIDCFixtures.noKid) == .success("user-42"))
        #expect(
            await Self.outcome(one, token: OIDCFixtures.signedByK2)
                == Self.refused("the id token's key (kid) is not one of the provider's keys"))
        let two = try Self.validator(jwks: OIDCFixtures.jwksK1K2)
        #expect(
            await Self.outcome(two, token: OIDCFixtures.noKid)
                == Self.refused("the id token names no key (kid) and the provider has several"))
        // Unusable keys in the set are skipped; k1 survives without use or alg.
        let mixed = try Self.validator(jwks: OIDCFixtures.jwksMixed)
        #expect(await Self.outcome(mixed, token: OIDCFixtures.valid) == .success("user-42"))
        #expect(await Self.outcome(mixed, token: OIDCFixtures.noKid) == .success("user-42"))
    }

    // MARK: - Malformed input

    @Test("malformed authData and tokens are refused with 208, never a crash")
    func malformed() async throws {
        let validator = try Self.validator()
        let missing = Self.refused("needs an id token in id_token")
        #expect(await Self.outcome(validator, [:]) == missing)
        #expect(await Self.outcome(validator, ["id_token": 42]) == missing)
        #expect(await Self.outcome(validator, ["id_token": ""]) == missing)
        #expect(await Self.outcome(validator, ["access_token": .string(OIDCFixtures.valid)]) == missing)

        let parts = OIDCFixtures.valid.split(separator: ".").map(String.init)
        let notJSON = "bm90IGpzb24"  // "not json"
        let array = "WzEsMl0"  // [1,2]
        let cases: [(String, String)] = [
            ("abc", "the token has 1 parts, not the three of a signed JWT"),
            ("a.b", "the token has 2 parts, not the three of a signed JWT"),
            ("a.b.c.d", "the token has 4 parts, not the three of a signed JWT"),
            ("a.b.c.d.e", "the token has 5 parts, not the three of a signed JWT"),
            ("..", "the header is not a JSON object"),
            ("!!!.###.$$$", "the header is not base64url"),
            ("\(parts[0])=.\(parts[1]).\(parts[2])", "the header is not base64url"),
            ("\(parts[0]).\(parts[1]).\(parts[2])==", "the signature is not base64url"),
            ("\(parts[0]).\(parts[1]).\(parts[2])+", "the signature is not base64url"),
            ("\(parts[0]).Zh.\(parts[2])", "the payload is not base64url"),  // non-zero leftover bits
            ("\(notJSON).\(parts[1]).\(parts[2])", "the header is not a JSON object"),
            ("\(array).\(parts[1]).\(parts[2])", "the header is not a JSON object"),
            ("\(parts[0]).\(array).\(parts[2])", "the payload is not a JSON object"),
            ("e30.\(parts[1]).\(parts[2])", "the header has no alg string"),  // {}
            ("eyJhbGciOjF9.\(parts[1]).\(parts[2])", "the header has no alg string"),  // {"alg":1}
            ("eyJhbGciOiJSUzI1NiIsImtpZCI6MX0.\(parts[1]).\(parts[2])", "the header's kid is not a string"),
            (String(repeating: "A", count: 20_000), "the token is longer than 16384 bytes"),
            ("\u{1F600}.\u{0}.\u{FFFD}", "the header is not base64url"),
        ]
        for (token, reason) in cases {
            #expect(
                await Self.outcome(validator, token: token) == Self.refused("the id token is malformed: \(reason)"),
                "\(token.prefix(60))")
        }
        // A well-formed token whose signature part is empty or garbage.
        #expect(
            await Self.outcome(validator, token: "\(parts[0]).\(parts[1]).")
                == Self.refused("the id token's signature is not valid"))
        #expect(
            await Self.outcome(validator, token: "\(parts[0]).\(parts[1]).AAAA")
                == Self.refused("the id token's signature is not valid"))
    }

    // MARK: - Settings

    @Test("invalid settings throw a ConfigurationError naming the setting")
    func invalidSettings() throws {
        let jwks = try JSONParser.parse(OIDCFixtures.jwksK1)
        let good: [String: JSONValue] = ["issuer": "https://id.example.com", "audience": "client-123", "jwks": jwks]
        let cases: [(String, JSONValue?, String)] = [
            ("issuer", nil, "OIDC: issuer must be a non-empty string (the provider's iss)"),
            ("issuer", "", "OIDC: issuer must be a non-empty string (the provider's iss)"),
            ("issuer", 7, "OIDC: issuer must be a non-empty string (the provider's iss)"),
            ("audience", nil, "OIDC: audience must be a non-empty string or array of strings (the client ids)"),
            ("audience", [], "OIDC: audience must be a non-empty string or array of strings (the client ids)"),
            ("audience", ["a", 1], "OIDC: audience must be a non-empty string or array of strings (the client ids)"),
            ("audience", ["a", ""], "OIDC: audience must be a non-empty string or array of strings (the client ids)"),
            ("jwks", nil, "OIDC: one of jwks (the key set) or jwksURL (where to fetch it) is required"),
            ("jwks", "keys", "OIDC: jwks: the key set is not an object with a keys array"),
            ("jwks", ["keys": []], "OIDC: jwks: the key set has no usable RS256 key"),
            (
                "jwks", try JSONParser.parse(OIDCFixtures.jwksWeakOnly),
                "OIDC: jwks: the key set has no usable RS256 key: key weak is not a sound RSA key of 2048 to 8192 bits"
            ),
            ("jwksURL", "https://id.example.com/jwks", "OIDC: give jwks or jwksURL, not both"),
        ]
        for (member, value, message) in cases {
            var settings = good
            settings[member] = value
            #expect(throws: ConfigurationError(message), "\(member)") {
                try OIDCAuthDataValidator(settings: settings, clock: .fixed(OIDCFixtures.now))
            }
        }
        let urlCases: [JSONValue] = ["http://id.example.com/jwks", "not a url", "https://", 5, "file:///etc/jwks.json"]
        for url in urlCases {
            let settings: [String: JSONValue] = [
                "issuer": "https://id.example.com", "audience": "client-123", "jwksURL": url,
            ]
            #expect(throws: ConfigurationError("OIDC: jwksURL must be an https URL"), "\(url)") {
                try OIDCAuthDataValidator(settings: settings, clock: .fixed(OIDCFixtures.now))
            }
        }
        let validator = try OIDCAuthDataValidator(
            settings: ["issuer": "https://id.example.com", "audience": ["a", "b"], "jwks": jwks, "type": "oidc"],
            clock: .fixed(OIDCFixtures.now))
        #expect(validator.issuer == "https://id.example.com")
        #expect(validator.audiences == ["a", "b"])
    }

    // MARK: - Fetched key sets

    @Test("jwksURL: fetched once on first use, kept for an hour, then fetched again")
    func fetchAndCache() async throws {
        let server = KeyServer(body: OIDCFixtures.jwksK1)
        let clock = TestClock(start: OIDCFixtures.now)
        let validator = try OIDCAuthDataValidator(
            settings: Self.urlSettings, clock: clock.serverClock, fetcher: server.fetcher)
        #expect(await server.fetchCount == 0)
        #expect(await Self.outcome(validator, token: OIDCFixtures.longLived) == .success("user-42"))
        #expect(await Self.outcome(validator, token: OIDCFixtures.longLived) == .success("user-42"))
        // Copies of the validator share the cache.
        let copy = validator
        #expect(await Self.outcome(copy, token: OIDCFixtures.longLived) == .success("user-42"))
        #expect(await server.fetchCount == 1)
        #expect(await server.urls == [URL(string: "https://id.example.com/.well-known/jwks.json")!])

        clock.advance(milliseconds: 3_599_000)
        #expect(await Self.outcome(validator, token: OIDCFixtures.longLived) == .success("user-42"))
        #expect(await server.fetchCount == 1)
        clock.advance(milliseconds: 1_000)
        #expect(await Self.outcome(validator, token: OIDCFixtures.longLived) == .success("user-42"))
        #expect(await server.fetchCount == 2)
    }

    @Test("validators made afresh for each login share one fetched set through a key set cache")
    func sharedCache() async throws {
        let server = KeyServer(body: OIDCFixtures.jwksK1)
        let clock = TestClock(start: OIDCFixtures.now)
        let cache = OIDCKeySetCache(fetcher: server.fetcher, clock: clock.serverClock)
        for _ in 0..<3 {
            let validator = try OIDCAuthDataValidator(settings: Self.urlSettings, keySets: cache)
            #expect(await Self.outcome(validator, token: OIDCFixtures.valid) == .success("user-42"))
        }
        #expect(await server.fetchCount == 1)
        // The cache's clock is the validators' clock.
        clock.advance(milliseconds: 3_700_000)
        let later = try OIDCAuthDataValidator(settings: Self.urlSettings, keySets: cache)
        #expect(await Self.outcome(later, token: OIDCFixtures.valid) == Self.refused("the id token has expired"))
        #expect(await server.fetchCount == 2)
        // Another URL gets its own set.
        var other = Self.urlSettings
        other["jwksURL"] = "https://login.example.org/keys"
        let elsewhere = try OIDCAuthDataValidator(settings: other, keySets: cache)
        #expect(await Self.outcome(elsewhere, token: OIDCFixtures.longLived) == .success("user-42"))
        #expect(await server.fetchCount == 3)
        #expect(await server.urls.last == URL(string: "https://login.example.org/keys"))
        // Validators with caches of their own fetch for themselves.
        let own1 = try OIDCAuthDataValidator(
            settings: Self.urlSettings, clock: clock.serverClock, fetcher: server.fetcher)
        let own2 = try OIDCAuthDataValidator(
            settings: Self.urlSettings, clock: clock.serverClock, fetcher: server.fetcher)
        #expect(await Self.outcome(own1, token: OIDCFixtures.longLived) == .success("user-42"))
        #expect(await Self.outcome(own2, token: OIDCFixtures.longLived) == .success("user-42"))
        #expect(await server.fetchCount == 5)
    }

    @Test("an unknown kid refetches the set, at most once a minute, and is accepted once the provider has it")
    func keyRotation() async throws {
        let server = KeyServer(body: OIDCFixtures.jwksK1)
        let clock = TestClock(start: OIDCFixtures.now)
        let validator = try OIDCAuthDataValidator(
            settings: Self.urlSettings, clock: clock.serverClock, fetcher: server.fetcher)
        #expect(await Self.outcome(validator, token: OIDCFixtures.valid) == .success("user-42"))
        #expect(await server.fetchCount == 1)

        // The provider rotates in k2. Within a minute of the last fetch, the unknown kid is refused unfetched.
        await server.serve(OIDCFixtures.jwksK1K2)
        let unknown = Self.refused("the id token's key (kid) is not one of the provider's keys")
        #expect(await Self.outcome(validator, token: OIDCFixtures.signedByK2) == unknown)
        #expect(await server.fetchCount == 1)
        // A minute later it refetches and finds k2; k1 still works, from the same fetch.
        clock.advance(milliseconds: 60_000)
        #expect(await Self.outcome(validator, token: OIDCFixtures.signedByK2) == .success("user-42"))
        #expect(await Self.outcome(validator, token: OIDCFixtures.valid) == .success("user-42"))
        #expect(await server.fetchCount == 2)
    }

    @Test("an unknown kid the provider does not have either is refused, and does not refetch again at once")
    func unknownKeyStaysUnknown() async throws {
        let server = KeyServer(body: OIDCFixtures.jwksK1)
        let clock = TestClock(start: OIDCFixtures.now)
        let validator = try OIDCAuthDataValidator(
            settings: Self.urlSettings, clock: clock.serverClock, fetcher: server.fetcher)
        let unknown = Self.refused("the id token's key (kid) is not one of the provider's keys")
        // First use: the fetch finds no k2.
        #expect(await Self.outcome(validator, token: OIDCFixtures.signedByK2) == unknown)
        #expect(await server.fetchCount == 1)
        clock.advance(milliseconds: 61_000)
        #expect(await Self.outcome(validator, token: OIDCFixtures.signedByK2) == unknown)
        #expect(await server.fetchCount == 2)
        // Flooding with unknown kids costs no more fetches within the minute.
        for _ in 0..<5 {
            #expect(await Self.outcome(validator, token: OIDCFixtures.signedByK2) == unknown)
        }
        #expect(await server.fetchCount == 2)
        // A token without kid uses the only key of the set already held.
        #expect(await Self.outcome(validator, token: OIDCFixtures.noKid) == .success("user-42"))
        #expect(await server.fetchCount == 2)
    }

    @Test("fetch failures answer 208, retry after a minute, and fall back on keys already held")
    func fetchFailures() async throws {
        let server = KeyServer(body: nil)
        let clock = TestClock(start: OIDCFixtures.now)
        let validator = try OIDCAuthDataValidator(
            settings: Self.urlSettings, clock: clock.serverClock, fetcher: server.fetcher)
        let unavailable = Self.refused("the provider's keys could not be fetched")
        #expect(await Self.outcome(validator, token: OIDCFixtures.longLived) == unavailable)
        #expect(await Self.outcome(validator, token: OIDCFixtures.longLived) == unavailable)
        #expect(await server.fetchCount == 1)
        // A set that is not JSON, or has no usable key, is a failed fetch too.
        clock.advance(milliseconds: 60_000)
        await server.serve("<html>")
        #expect(await Self.outcome(validator, token: OIDCFixtures.longLived) == unavailable)
        clock.advance(milliseconds: 60_000)
        await server.serve(OIDCFixtures.jwksWeakOnly)
        #expect(await Self.outcome(validator, token: OIDCFixtures.longLived) == unavailable)
        #expect(await server.fetchCount == 3)

        clock.advance(milliseconds: 60_000)
        await server.serve(OIDCFixtures.jwksK1)
        #expect(await Self.outcome(validator, token: OIDCFixtures.longLived) == .success("user-42"))
        #expect(await server.fetchCount == 4)
        // Two hours on, the provider is down: the old keys stay in use, refetched at most once a minute.
        await server.serve(nil)
        clock.advance(milliseconds: 7_200_000)
        #expect(await Self.outcome(validator, token: OIDCFixtures.longLived) == .success("user-42"))
        #expect(await Self.outcome(validator, token: OIDCFixtures.longLived) == .success("user-42"))
        #expect(await server.fetchCount == 5)
    }

    @Test("concurrent first uses share one fetch")
    func concurrentFirstUse() async throws {
        let server = KeyServer(body: nil)
        await server.serve(OIDCFixtures.jwksK1, delay: .milliseconds(100))
        let validator = try OIDCAuthDataValidator(
            settings: Self.urlSettings, clock: .fixed(OIDCFixtures.now), fetcher: server.fetcher)
        let results = await withTaskGroup(of: Result<String, BmobAPIError>.self) { group in
            for _ in 0..<8 {
                group.addTask { await Self.outcome(validator, token: OIDCFixtures.valid) }
            }
            var results: [Result<String, BmobAPIError>] = []
            for await result in group { results.append(result) }
            return results
        }
        #expect(results.count == 8)
        #expect(results.allSatisfy { $0 == .success("user-42") })
        #expect(await server.fetchCount == 1)
    }
}
