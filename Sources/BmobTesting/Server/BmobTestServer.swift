public import Foundation

/// An in-process Bmob server for your app's tests: a loopback port, a fresh temporary data folder, and one
/// app with known keys. Point the SDK at it and test against a real server, no network needed.
///
/// ```swift
/// let server = try await BmobTestServer.start()
/// Bmob.resetDomain(server.baseURL)
/// try await Bmob.initialize(appKey: server.applicationId)
/// // … exercise your code …
/// await server.stop()
/// ```
public final class BmobTestServer: Sendable {
    private let server: TestServer

    private init(server: TestServer) {
        self.server = server
    }

    /// Starts a server on `127.0.0.1` with a free port and an empty database.
    public static func start() async throws -> BmobTestServer {
        BmobTestServer(server: try await TestServer.start())
    }

    /// `http://127.0.0.1:<port>`: give it to `Bmob.resetDomain(_:)`.
    public var baseURL: String { server.baseURL }

    /// The listening port.
    public var port: Int { server.port }

    /// The app's Application ID: give it to `Bmob.initialize(appKey:)`.
    public var applicationId: String { TestServer.applicationId }

    /// The app's REST API key, for `X-Bmob-REST-API-Key`.
    public var restKey: String { TestServer.restKey }

    /// The app's Master Key, for `X-Bmob-Master-Key`.
    public var masterKey: String { TestServer.masterKey }

    /// The folder holding the server's data, removed by ``stop()``.
    public var dataDirectory: URL { server.dataDirectory }

    /// Shuts the server down and removes its data folder.
    public func stop() async {
        await server.stop()
    }
}
