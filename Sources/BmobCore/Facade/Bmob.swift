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

    /// Whether ``initialize(appKey:)`` has completed successfully.
    public static var isReady: Bool {
        get async { BmobClient.shared.isReady }
    }
}
