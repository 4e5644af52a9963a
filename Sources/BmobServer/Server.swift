import BmobHTTP
package import BmobIO
import BmobStore
import BmobWire
import Foundation

/// A running Bmob server: apps, storage and the HTTP front doors on one set of event loops.
///
/// ```swift
/// let server = try await Server.start(configuration: configuration, logger: logger)
/// print("listening on \(server.baseURL)")
/// await server.run()   // until the task is cancelled; then drains requests and closes everything
/// ```
package final class Server: Sendable {
    package let context: ServerContext
    private let http: HTTPServer
    private let hub: RealtimeHub
    /// The development app created because the data folder had none, if that happened on this start.
    package let createdDevelopmentApp: App?

    private init(context: ServerContext, http: HTTPServer, hub: RealtimeHub, createdDevelopmentApp: App?) {
        self.context = context
        self.http = http
        self.hub = hub
        self.createdDevelopmentApp = createdDevelopmentApp
    }

    /// The bound address (the real port when port 0 was configured).
    package var localAddress: SocketAddress { http.localAddress }

    /// Open client connections (HTTP and WebSocket) across all loops.
    package var connectionCount: Int { http.connectionCount }

    /// This server's version, announced in the native handshake's `Response-Id` header.
    package static let version = "BmobSwift/0.1.0"

    /// `http://host:port` of the listening socket.
    package var baseURL: String {
        context.configuration.host == "localhost" ? "http://localhost:\(localAddress.port)" : "http://\(localAddress)"
    }

    /// Prepares the data folder (creating a development app when it has none), opens every app and starts
    /// listening.
    ///
    /// - Parameters:
    ///   - providers: where SMS codes and mails go; by default
    ///     ``MessageProviders/standard(configuration:logger:pool:clock:)`` (the outbox, SMTP when configured).
    ///   - authValidators: third-party login validator types; by default
    ///     ``AuthDataValidators/standard(clock:)`` (`trust` and `oidc`). Add WeChat, QQ or Weibo validators with
    ///     ``AuthDataValidators/registering(_:_:)`` and name their type in an app's `authProviders`.
    /// - Throws: ``ConfigurationError`` for an unusable data folder or registry, ``IOError`` when the address
    ///   cannot be bound.
    package static func start(
        configuration: ServerConfiguration,
        clock: ServerClock = .system,
        logger: Logger,
        providers: MessageProviders? = nil,
        authValidators: AuthDataValidators? = nil
    ) async throws -> Server {
        let registry = AppRegistry(dataDirectory: configuration.dataDirectory)
        var createdApp: App?
        if try registry.load().isEmpty {
            // The development app trusts third-party login data, so that apps can be built before the platforms
            // are set up; `bmob apps` makes apps without it.
            let trust: JSONValue = ["type": "trust"]
            createdApp = try registry.create(
                name: "Development",
                authProviders: Dictionary(uniqueKeysWithValues: AuthPlatforms.known.map { ($0, trust) }),
                now: clock.nowSeconds)
        }
        let pool = ThreadPool(threadCount: 2, name: "bmob-blocking")
        let apps: AppDirectory
        do {
            apps = try await AppDirectory.open(
                registry: registry,
                pool: pool,
                stores: StoreFactory(
                    configuration.storage,
                    workLimits: StoreWorkLimits(
                        regexSteps: configuration.maxRegexSteps, queryWork: configuration.maxQueryWork))
            )
        } catch {
            pool.shutdown()
            throw error
        }
        let context = ServerContext(configuration: configuration, apps: apps, clock: clock, logger: logger, blockingPool: pool)

        var router = BmobRouter()
        SystemRoutes.register(in: &router)
        let time = TimeService(clock: clock)
        TimestampRoutes.register(in: &router, time: time)
        let users = UserService(
            clock: clock, hashing: pool, sessionLifetimeSeconds: Int64(configuration.sessionLifetimeSeconds),
            validators: authValidators ?? .standard(clock: clock), limits: configuration.accountLimits)
        let roles = RoleService(clock: clock, users: users)
        let access = AccessControl { context in try await roles.scope(context) }
        let objects = ObjectService(clock: clock, access: access)
        ObjectRoutes.register(in: &router, objects: objects)
        let batch = BatchService(objects: objects, users: users)
        let queries = QueryService(access: access)
        let schemas = SchemaService()
        BatchRoutes.register(in: &router, batch: batch)
        QueryRoutes.register(in: &router, queries: queries)
        SchemaRoutes.register(in: &router, schemas: schemas)
        UserRoutes.register(in: &router, users: users, objects: objects, queries: queries)
        RoleRoutes.register(in: &router, roles: roles, objects: objects, queries: queries)
        let messaging = providers ?? .standard(configuration: configuration, logger: logger, pool: pool, clock: clock)
        let sms = SmsCodeService(clock: clock, provider: messaging.sms, logger: logger, limits: configuration.accountLimits)
        let email = EmailLinkService(
            clock: clock, provider: messaging.mail, hashing: pool, logger: logger, limits: configuration.accountLimits)
        VerificationRoutes.register(in: &router, sms: sms, email: email, users: users)
        NativeRoutes.register(in: &router, calls: NativeCallRunner(
                objects: objects, queries: queries, schemas: schemas, batch: batch, time: time, users: users,
                sms: sms, email: email, roles: roles))
        let hub = RealtimeHub(logger: logger)
        SocketIOGateway(hub: hub, apps: apps, configuration: configuration).register(in: &router)
        let responder = BmobResponder(router: router, server: context)

        let httpConfiguration = HTTPServerConfiguration(
            host: configuration.host,
            port: configuration.port,
            loopCount: configuration.loops ?? EventLoopGroup.coreCount,
            limits: HTTPRequestDecoder.Limits(maxHeaderBytes: configuration.maxHeaderBytes, maxBodyBytes: configuration.maxBodyBytes),
            headerTimeout: .seconds(configuration.headerTimeoutSeconds),
            bodyTimeout: .seconds(configuration.bodyTimeoutSeconds),
            idleTimeout: .seconds(configuration.idleTimeoutSeconds),
            maxConnections: configuration.maxConnections,
            maxConnectionsPerAddress: configuration.maxConnectionsPerAddress,
            shutdownGracePeriod: .seconds(configuration.shutdownGraceSeconds)
        )
        let http: HTTPServer
        do {
            http = try await HTTPServer.start(configuration: httpConfiguration, responder: responder)
        } catch {
            await apps.close()
            pool.shutdown()
            throw error
        }
        let server = Server(context: context, http: http, hub: hub, createdDevelopmentApp: createdApp)
        context.setListeningURL(server.baseURL)
        return server
    }

    /// Serves until the calling task is cancelled or ``shutdown()`` is called, then shuts down gracefully.
    package func run() async {
        await http.run()
        await closeResources()
    }

    /// Stops accepting, finishes in-flight requests, closes connections and storage.
    package func shutdown() async {
        await http.shutdown()
        await closeResources()
    }

    private func closeResources() async {
        hub.shutdown()
        await context.apps.close()
        context.blockingPool.shutdown()
    }
}
