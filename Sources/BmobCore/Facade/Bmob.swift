import BmobWire

/// The SDK's entry point: where the server is, and the app to use.
///
/// ```swift
/// Bmob.resetDomain("https://your-private-cloud.com")   // before initialize
/// try await Bmob.initialize(appKey: "your-application-id")
/// if await Bmob.isReady { … }
/// ```
public enum Bmob {
    /// Connects to the server as the app with this Application ID: exchanges keys with `/8/secret`, then
    /// reads the server's settings and clock with `/8/init`. Calls made while it runs wait for it.
    ///
    /// - Throws: ``BmobError/invalidParameter(reason:)`` for an empty key or an unusable domain,
    ///   ``BmobError/serverError(code:message:)`` for an unknown app, network errors as
    ///   ``BmobError/networkError(underlying:)`` or ``BmobError/timeout``.
    public static func initialize(appKey: String) async throws {
        try await BmobClient.shared.initialize(appKey: appKey)
    }

    /// Sets the server's address (`https://host[:port]`, without `/8`), for a private cloud or
    /// `bmob serve`. Call it before ``initialize(appKey:)``; an address that is not an `http` or `https`
    /// URL makes the next initialize throw ``BmobError/invalidParameter(reason:)``.
    public static func resetDomain(_ domain: String) {
        BmobClient.shared.resetDomain(domain)
    }

    /// Sets the address of the realtime service that `BmobEvent` connects to, or clears it.
    ///
    /// ```swift
    /// try await Bmob.resetIODomain("https://realtime.example.com:443")
    /// try await Bmob.resetIODomain(nil) // back to init's `io`, or the default address
    /// ```
    ///
    /// Give only a scheme, a host and an optional port: `http://`, `https://`, `ws://`, `wss://`, or a bare
    /// `host:port` (HTTP). A secure address uses an HTTPS handshake and a WSS connection. Realtime picks, in
    /// order, this address, the `io` address of the server's init answer, and `http://io.codenow.cn:3010`.
    /// ``initialize(appKey:)`` never overwrites it, and it may be set before or after initializing. A
    /// connection already open keeps its address until it reconnects; ``resetDomain(_:)`` sets the API
    /// address separately.
    ///
    /// - Parameter domain: the address, or `nil` to clear the custom address.
    /// - Throws: ``BmobError/invalidParameter(reason:)`` for anything else (a path, query, fragment, user
    ///   information, unknown scheme, empty host or bad port); the previous address is kept.
    public static func resetIODomain(_ domain: String?) async throws {
        try BmobClient.shared.resetIODomain(domain)
    }

    /// The SDK's release, `major.minor.patch`: what its realtime `User-Agent` reports
    /// (`BmobSwiftSDK/<release>`) and what `GET /1/serverInfo` of a Bmob Swift server of the same release answers
    /// as `version`.
    public static var sdkVersion: String { BmobVersion.current }

    /// Whether ``initialize(appKey:)`` has completed successfully.
    public static var isReady: Bool {
        get async { BmobClient.shared.isReady }
    }
}
