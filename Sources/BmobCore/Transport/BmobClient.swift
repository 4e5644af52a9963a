package import BmobWire
package import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The SDK's state and the one place requests go through: the static API (`Bmob`, `BmobObject.save()`, …)
/// is a facade over ``shared``; tests can make their own clients.
///
/// Thread safety: every mutable member is read and written only while `lock` is held, and no lock is held
/// across an `await`; that is what makes the `@unchecked Sendable` below sound.
package final class BmobClient: @unchecked Sendable {
    /// The client behind the static API.
    package static let shared = BmobClient()

    /// The vendor's default native host, used until ``resetDomain(_:)``.
    package static let defaultDomain = "https://open.cctvcloud.cn"

    /// The protocol version the SDK reports in `v`.
    package static let protocolVersion = "v2.4.1"

    private let lock = NSLock()
    private var domain = BmobClient.defaultDomain
    private var session: BmobSession?
    private var initialization: Task<BmobSession, any Error>?
    private var sessionTokenValue: String?
    private var userObjectIdValue: String?
    private var userGeneration: UInt64 = 0
    private var customIOAddress: BmobIOAddress?
    private let transport: NativeTransport

    package init(transport: NativeTransport = NativeTransport()) {
        self.transport = transport
    }

    /// Sets the server for the next ``initialize(appKey:)``.
    package func resetDomain(_ domain: String) {
        lock.withLock { self.domain = domain }
    }

    /// Sets the realtime service's address, or clears it with `nil`; ``initialize(appKey:)`` never
    /// changes it.
    ///
    /// - Parameter domain: `http(s)://host[:port]`, `ws(s)://host[:port]` or `host[:port]`; see
    ///   ``BmobIOAddress/init(parsing:)``.
    /// - Throws: ``BmobError/invalidParameter(reason:)`` when the text is not such an address; the previous
    ///   address is kept.
    package func resetIODomain(_ domain: String?) throws(BmobError) {
        guard let domain else {
            lock.withLock { customIOAddress = nil }
            return
        }
        guard let address = BmobIOAddress(parsing: domain) else {
            throw .invalidParameter(
                reason: "realtime domain must be http://, https://, ws://, wss:// or host:port with no path")
        }
        lock.withLock { customIOAddress = address }
    }

    /// The address set with ``resetIODomain(_:)``, if any.
    package var customRealtimeAddress: BmobIOAddress? {
        lock.withLock { customIOAddress }
    }

    /// The realtime service to connect to now: the custom address, else `/8/init`'s `io`, else
    /// ``BmobIOAddress/fallback``.
    package var realtimeAddress: BmobIOAddress {
        lock.withLock { BmobIOAddress.resolve(custom: customIOAddress, initIO: session?.settings["io"]) }
    }

    /// Whether a session is established.
    package var isReady: Bool {
        lock.withLock { session != nil }
    }

    /// The session, if initialize has completed.
    package var currentSession: BmobSession? {
        lock.withLock { session }
    }

    /// The logged-in user's session token, sent with every request while set; see
    /// ``setUser(objectId:sessionToken:)``.
    package var sessionToken: String? {
        lock.withLock { sessionTokenValue }
    }

    /// Who requests run as now: the logged-in user's objectId (`nil` for anonymous), and a generation that
    /// grows with every ``setUser(objectId:sessionToken:)``. An answer may be kept for the user it was fetched
    /// for only while the generation is unchanged: then no other session token can have been sent meanwhile,
    /// even if the user changed and changed back.
    package var user: (objectId: String?, generation: UInt64) {
        lock.withLock { (userObjectIdValue, userGeneration) }
    }

    /// Runs the next requests as the user `objectId` with its session token, or anonymously when both are
    /// `nil`. The two change together, so the user the query cache files an answer under is always the one
    /// whose token was sent.
    package func setUser(objectId: String?, sessionToken: String?) {
        lock.withLock {
            userObjectIdValue = objectId
            sessionTokenValue = sessionToken
            userGeneration &+= 1
        }
    }

    /// Runs the handshake and keeps its session. A second call starts over (for another app or domain).
    package func initialize(appKey: String) async throws(BmobError) {
        guard !appKey.isEmpty else { throw .invalidParameter(reason: "appKey is empty") }
        let domainText = lock.withLock { domain }
        guard let domain = Self.parseDomain(domainText) else {
            throw .invalidParameter(reason: "domain \"\(domainText)\" is not an http or https address")
        }
        let transport = self.transport
        let task = Task { try await Self.handshake(appKey: appKey, domain: domain, transport: transport) }
        lock.withLock {
            session = nil
            initialization = task
        }
        do {
            let established = try await task.value
            lock.withLock {
                if initialization == task { session = established }
            }
        } catch {
            lock.withLock {
                if initialization == task { initialization = nil }
            }
            throw Self.bmobError(error)
        }
    }

    /// The session, waiting for an initialize in progress.
    package func requireSession() async throws(BmobError) -> BmobSession {
        let (ready, pending) = lock.withLock { (session, initialization) }
        if let ready { return ready }
        guard let pending else { throw .notInitialized }
        do {
            return try await pending.value
        } catch {
            throw .notInitialized
        }
    }

    /// Calls a native route and returns the answer's `data`.
    ///
    /// - Parameters:
    ///   - route: `create`, `find`, …
    ///   - members: the request's own members (`c`, `objectId`, `data`, …); the common ones (`client`, `v`,
    ///     `appSign`, `timestamp`, `sessionToken`) are added here.
    package func call(_ route: String, _ members: [String: JSONValue]) async throws(BmobError) -> JSONValue {
        let session = try await requireSession()
        var body = Self.commonMembers(clockOffset: session.clockOffset)
        if let token = sessionToken { body["sessionToken"] = .string(token) }
        for (name, value) in members { body[name] = value }
        let userAgent = BmobUserAgent.make()
        let acceptId = Self.acceptId(appKey: session.appKey, userAgent: userAgent)
        let (data, response) = try await transport.post(
            domain: session.domain, route: route, plaintext: .object(body), key: session.secretKey,
            userAgent: userAgent, headers: ["Accept-Id": acceptId])
        return try NativeTransport.unwrap(data, status: response.statusCode, key: session.secretKey)
    }

    // MARK: - Handshake

    private static func handshake(appKey: String, domain: URL, transport: NativeTransport) async throws(BmobError) -> BmobSession {
        // 1. /8/secret, keyed with the user agent; the answer is keyed with its Response-Id header.
        let userAgent = BmobUserAgent.make()
        var secretRequest = commonMembers(clockOffset: 0)
        secretRequest["appKey"] = .string(appKey)
        let (secretBody, secretResponse) = try await transport.post(
            domain: domain, route: "secret", plaintext: .object(secretRequest),
            key: NativeEnvelope.tailKey(userAgent), userAgent: userAgent, headers: [:])
        let responseId = secretResponse.value(forHTTPHeaderField: "Response-Id") ?? ""
        let key = responseId.utf8.count >= 16 ? NativeEnvelope.tailKey(responseId) : NativeEnvelope.acceptIdKey(userAgent: userAgent)
        let secretData = try NativeTransport.unwrap(secretBody, status: secretResponse.statusCode, key: key)
        guard let secretKey = secretData["secretKey"]?.stringValue, !secretKey.isEmpty else {
            throw .jsonParsingFailed
        }
        var session = BmobSession(
            appKey: appKey, domain: domain, secretKey: NativeEnvelope.key(secretKey), clockOffset: 0, settings: [:])

        // 2. /8/init with the secret key: the server's clock and addresses.
        let initUserAgent = BmobUserAgent.make()
        let acceptId = acceptId(appKey: appKey, userAgent: initUserAgent)
        let (initBody, initResponse) = try await transport.post(
            domain: domain, route: "init", plaintext: .object(commonMembers(clockOffset: 0)), key: session.secretKey,
            userAgent: initUserAgent, headers: ["Accept-Id": acceptId])
        let settings = try NativeTransport.unwrap(initBody, status: initResponse.statusCode, key: session.secretKey)
        if let serverTime = settings["timestamp"]?.int64Value {
            session.clockOffset = Int(serverTime - Int64(Date().timeIntervalSince1970))
        }
        for (name, value) in settings.objectValue ?? [:] {
            if let text = value.stringValue { session.settings[name] = text }
        }
        return session
    }

    /// The `Accept-Id` header: the Application ID sealed with user-agent bytes 1 to 16.
    package static func acceptId(appKey: String, userAgent: String) -> String {
        String(decoding: NativeEnvelope.seal(Array(appKey.utf8), key: NativeEnvelope.acceptIdKey(userAgent: userAgent)), as: UTF8.self)
    }

    /// `client`, `v`, `appSign` and `timestamp`, as every native request carries them.
    private static func commonMembers(clockOffset: Int) -> [String: JSONValue] {
        let version = ProcessInfo.processInfo.operatingSystemVersion
        let bundle = Bundle.main.bundleIdentifier ?? "com.bmob.unknown"
        #if DEBUG
        let build = "0"
        #else
        let build = "1"
        #endif
        return [
            "client": [
                "caller": .string(BmobUserAgent.platform),
                "version": .string("\(version.majorVersion).\(version.minorVersion).\(version.patchVersion)"),
                "ex": ["latitude": 0, "longitude": 0, "uuid": "", "package": .string(bundle)],
            ],
            "v": .string(protocolVersion),
            "appSign": .string("\(bundle)/\(build)"),
            "timestamp": .int(Int64(Date().timeIntervalSince1970) + Int64(clockOffset)),
        ]
    }

    /// `https://host[:port]` without a trailing slash, or `nil` when it is not an http(s) URL.
    package static func parseDomain(_ text: String) -> URL? {
        var trimmed = text.trimmingCharacters(in: .whitespaces)
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        if trimmed.hasSuffix("/8") { trimmed.removeLast(2) }
        guard let url = URL(string: trimmed), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", url.host != nil
        else { return nil }
        return url
    }

    /// Any error as a ``BmobError``.
    package static func bmobError(_ error: any Error) -> BmobError {
        if let error = error as? BmobError { return error }
        return .networkError(underlying: error)
    }
}
