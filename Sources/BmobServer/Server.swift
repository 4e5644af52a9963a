import BmobCrypto
import BmobHTTP
package import BmobIO
import BmobStore
import BmobWire
import Foundation
import BmobServerCodecs

/// A Bmob server: apps, storage and the HTTP front doors on one set of event loops.
///
/// ```swift
/// let server = try await Server.start(configuration: configuration, logger: logger)
/// print("listening on \(server.baseURL)")
/// await server.run()   // until the task is cancelled; then drains requests and closes everything
/// ```
///
/// ``start(configuration:clock:logger:providers:authValidators:)`` opens the apps and binds the port;
/// ``run()`` is the server's root: one task group of its services (the HTTP server, and the realtime journal
/// feeds with a child task per app), until cancellation or ``shutdown()``.
package final class Server: Sendable {
    package let context: ServerContext
    private let http: HTTPServer
    /// The admin port's server (`/metrics`, `/health`), when the `adminPort` setting asks for one.
    private let admin: HTTPServer?
    private let feeds: RealtimeFeeds
    /// The socket.io door, for server-side events (``SocketIOGateway/publish(_:)``).
    package let socketIO: SocketIOGateway
    /// The channels door (Pusher protocol).
    package let channels: PusherGateway
    /// The development app created because the data folder had none, if that happened on this start.
    package let createdDevelopmentApp: App?
    /// The local provider's multipart uploads (their part counter shows what a resumed upload sent).
    package let fileUploads: LocalMultipartUploads
    /// The REST API's OpenAPI document, served at `GET /1/openapi.json`.
    package let openAPI: OpenAPIDocument
    private let lifecycle = LockedValue(Lifecycle())
    /// Finished by ``shutdown()`` (or cancellation) to end ``run()``.
    private let stopSignal = AsyncStream<Never>.makeStream(bufferingPolicy: .unbounded)

    /// Who tears the server down: ``run()`` when it ran, else ``shutdown()``; the other waits.
    private struct Lifecycle {
        enum Phase { case ready, running, closed }
        var phase = Phase.ready
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private init(
        context: ServerContext, http: HTTPServer, admin: HTTPServer?, feeds: RealtimeFeeds, socketIO: SocketIOGateway,
        channels: PusherGateway, createdDevelopmentApp: App?, fileUploads: LocalMultipartUploads,
        openAPI: OpenAPIDocument
    ) {
        self.channels = channels
        self.openAPI = openAPI
        self.fileUploads = fileUploads
        self.context = context
        self.http = http
        self.admin = admin
        self.feeds = feeds
        self.socketIO = socketIO
        self.createdDevelopmentApp = createdDevelopmentApp
    }

    /// The bound address (the real port when port 0 was configured).
    package var localAddress: SocketAddress { http.localAddress }

    /// The admin port's address, when the `adminPort` setting opened one.
    package var adminAddress: SocketAddress? { admin?.localAddress }

    /// Open client connections (HTTP and WebSocket) across all loops.
    package var connectionCount: Int { http.connectionCount }

    /// This server's name and release (`BmobVersion.current`), announced in the native handshake's
    /// `Response-Id` header; at least 7 bytes, so that the header has 16 after its 10 digits.
    package static let version = "BmobSwift/\(BmobVersion.current)"

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
    ///   - loopClock: what the event loops' timers (every connection timeout) are measured against; tests pass
    ///     a manual clock (``BmobIO/EventLoopClock/manual(_:)``) and advance it instead of waiting.
    ///   - functions: the Swift cloud functions the server runs (`POST /1/functions/<name>`, `/8/functions`).
    /// - Throws: ``ConfigurationError`` for an unusable data folder or registry, ``IOError`` when the address
    ///   cannot be bound.
    package static func start(
        configuration: ServerConfiguration,
        clock: ServerClock = .system,
        loopClock: EventLoopClock = .system,
        logger: Logger,
        providers: MessageProviders? = nil,
        authValidators: AuthDataValidators? = nil,
        functions: CloudFunctions = CloudFunctions()
    ) async throws -> Server {
        let registry = AppRegistry(dataDirectory: configuration.dataDirectory, storage: configuration.storage)
        var createdApp: App?
        // Moving to PostgreSQL: the data folder's apps come along the first time (the table is empty then).
        try registry.importFileIfEmpty()
        if try registry.load().isEmpty {
            // The development app trusts third-party login data, so that apps can be built before the platforms
            // are set up; `bmob apps` makes apps without it.
            let trust: JSONValue = ["type": "trust"]
            createdApp = try registry.create(
                name: "Development",
                authProviders: Dictionary(uniqueKeysWithValues: AuthPlatforms.known.map { ($0, trust) }),
                now: clock.nowSeconds)
        }
        // Read before anything is started that would have to be stopped if it failed.
        let consoleAdmin = try ConsoleAdmin.load(configuration)
        let handshakeKey = try registry.sharedSecret("socket.io handshake ids")
        let uploadKey = try registry.sharedSecret("file upload credentials")
        let downloadKey = try registry.sharedSecret("file download signatures")
        // A bucket when the `s3…` settings name one, else the data folder (whose multipart endpoint stays mounted).
        let bucketFiles: (any FileStorage)? = try configuration.files.s3.map {
            try S3FileStorage(configuration: $0, clock: clock)
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
                        regexSteps: configuration.maxRegexSteps, queryWork: configuration.maxQueryWork),
                    // Journal times are the server's, as objects' dates are: history's dates and filters agree with
                    // `updatedAt`, and retention follows the same clock.
                    clock: { clock.nowMilliseconds() },
                    listenURL: configuration.databaseListenURL)
            )
        } catch {
            pool.shutdown()
            throw error
        }
        let context = ServerContext(configuration: configuration, apps: apps, clock: clock, logger: logger, blockingPool: pool)

        let time = TimeService(clock: clock)
        let callers = CallerResolver(clock: clock)
        let users = UserService(
            clock: clock, hashing: pool, sessionLifetimeSeconds: Int64(configuration.sessionLifetimeSeconds),
            validators: authValidators ?? .standard(clock: clock), limits: configuration.accountLimits,
            callers: callers)
        let messaging = context.metrics.counting(
            providers ?? .standard(configuration: configuration, logger: logger, pool: pool, clock: clock))
        let email = EmailLinkService(
            clock: clock, provider: messaging.mail, hashing: pool, logger: logger, limits: configuration.accountLimits)
        let localFiles = LocalFileStorage(root: configuration.dataDirectory + "/files", pool: pool)
        let uploads = LocalMultipartUploads(
            storage: localFiles, pool: pool, expirySeconds: configuration.files.uploadExpirySeconds)
        let files = FileService(
            storage: bucketFiles ?? localFiles,
            settings: configuration.files, credentials: UploadCredentialIssuer(secret: uploadKey),
            downloads: DownloadSigner(secret: downloadKey), clock: clock, callers: callers, server: context)
        let runner = OperationRunner(
            objects: ObjectService(clock: clock, callers: callers), queries: QueryService(callers: callers),
            users: users, roles: RoleService(clock: clock, users: users), schemas: SchemaService(),
            sms: SmsCodeService(clock: clock, provider: messaging.sms, logger: logger, limits: configuration.accountLimits),
            email: email, time: time, files: files,
            functions: CloudFunctionService(
                functions: functions,
                webhooks: WebhookClient(
                    timeoutSeconds: configuration.webhookTimeoutSeconds, concurrency: configuration.webhookConcurrency,
                    clock: clock),
                callers: callers, logger: logger),
            history: HistoryService(
                clock: clock, callers: callers,
                pruner: HistoryPruner(
                    intervalSeconds: configuration.historyPruneIntervalSeconds,
                    graceSeconds: configuration.historyPruneGraceSeconds, clock: clock, logger: logger)),
            callers: callers,
            server: context)

        var router = BmobRouter()
        SystemRoutes.register(in: &router)
        MetricsRoutes.register(in: &router)
        TimestampRoutes.register(in: &router, runner: runner)
        ObjectRoutes.register(in: &router, runner: runner)
        BatchRoutes.register(in: &router, runner: runner)
        QueryRoutes.register(in: &router, runner: runner)
        SchemaRoutes.register(in: &router, runner: runner)
        UserRoutes.register(in: &router, runner: runner)
        RoleRoutes.register(in: &router, runner: runner)
        VerificationRoutes.register(in: &router, runner: runner, email: email)
        NativeRoutes.register(in: &router, runner: runner)
        FileRoutes.register(in: &router, runner: runner)
        FunctionRoutes.register(in: &router, runner: runner, paramsAsStrings: configuration.functionParamsAsStrings)
        HistoryRoutes.register(in: &router, runner: runner)
        ChannelAuthRoutes.register(in: &router, service: ChannelAuthService(callers: callers))
        FileDownloadRoutes.register(in: &router, files: files)
        S3MultipartRoutes.register(in: &router, uploads: uploads, files: files)
        ConsoleRoutes.register(in: &router, admin: consoleAdmin)
        let feeds = RealtimeFeeds(logger: logger)
        let socketIO = SocketIOGateway(
            feeds: feeds, apps: apps, configuration: configuration, logger: logger, clock: loopClock,
            handshakeKey: handshakeKey, serverClock: clock)
        socketIO.register(in: &router)
        // On PostgreSQL, channels span every node sharing the database; on SQLite they are this node's.
        var cluster: PostgresChannelCluster?
        if case .postgres(let url) = configuration.storage {
            cluster = PostgresChannelCluster(
                .init(
                    url: url, listenURL: configuration.databaseListenURL, node: SecureRandom.hex(byteCount: 8),
                    nodeTimeoutSeconds: Double(configuration.channelNodeTimeoutSeconds)))
        }
        let channels = PusherGateway(apps: apps, clock: clock, logger: logger, cluster: cluster)
        do {
            try await channels.start()
        } catch {
            await channels.stop()
            await apps.close()
            pool.shutdown()
            throw error
        }
        channels.register(in: &router)
        PusherAPIRoutes.register(in: &router, gateway: channels)
        SyncGateway(
            functions: functions.sync, operations: runner, feeds: feeds, apps: apps, configuration: configuration,
            clock: clock, logger: logger
        ).register(in: &router)
        let openAPI = OpenAPIRoutes.register(in: &router)
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
            shutdownGracePeriod: .seconds(configuration.shutdownGraceSeconds),
            clock: loopClock
        )
        let http: HTTPServer
        do {
            http = try await HTTPServer.start(configuration: httpConfiguration, responder: responder)
        } catch {
            await channels.stop()
            await apps.close()
            pool.shutdown()
            throw error
        }
        context.metrics.attach(.init(http: http, apps: apps, feeds: feeds))
        var admin: HTTPServer?
        if let adminPort = configuration.adminPort {
            do {
                admin = try await HTTPServer.start(
                    configuration: HTTPServerConfiguration(
                        host: configuration.adminHost, port: adminPort, loopCount: 1, maxConnections: 64,
                        maxConnectionsPerAddress: 64, clock: loopClock),
                    responder: AdminResponder(metrics: context.metrics))
            } catch {
                await http.shutdown()
                await channels.stop()
                await apps.close()
                pool.shutdown()
                throw error
            }
        }
        let server = Server(
            context: context, http: http, admin: admin, feeds: feeds, socketIO: socketIO, channels: channels,
            createdDevelopmentApp: createdApp, fileUploads: uploads, openAPI: openAPI)
        context.setListeningURL(server.baseURL)
        return server
    }

    /// Serves until the calling task is cancelled or ``shutdown()`` is called, then shuts down gracefully:
    /// stops accepting, finishes in-flight requests, closes connections, stops the journal feeds and closes
    /// storage. Returns once all of that is done; a second call, or one after ``shutdown()``, waits for the same.
    ///
    /// The services run as child tasks of one task group: the HTTP server (its loops accept from
    /// ``start(configuration:clock:logger:providers:authValidators:)`` on; its task drains and closes it when
    /// the server stops), and ``RealtimeFeeds/run()`` with a child task per app's journal feed. Cancelling the
    /// calling task cancels them all; the feeds also end once the HTTP server has closed its connections,
    /// since nobody is left to hear them.
    package func run() async {
        guard takeTeardown() else { return await closed() }
        await withDiscardingTaskGroup { group in
            group.addTask { await self.feeds.run() }
            group.addTask {
                await self.stopRequested()
                await self.http.shutdown()
                await self.admin?.shutdown()
                await self.channels.stop()
                self.feeds.shutdown()
            }
        }
        await closeResources()
    }

    /// Stops accepting, finishes in-flight requests, closes connections and storage: ends ``run()`` if it
    /// runs, else does the same itself. Returns once the server is closed.
    package func shutdown() async {
        guard takeTeardown() else {
            stopSignal.continuation.finish()
            return await closed()
        }
        await http.shutdown()
        await admin?.shutdown()
        await channels.stop()
        feeds.shutdown()
        await closeResources()
    }

    /// Whether the caller is the first of ``run()`` and ``shutdown()``, the one that tears the server down.
    private func takeTeardown() -> Bool {
        lifecycle.withLock { lifecycle in
            guard lifecycle.phase == .ready else { return false }
            lifecycle.phase = .running
            return true
        }
    }

    /// Returns when ``shutdown()`` is called or the task is cancelled.
    private func stopRequested() async {
        let signal = stopSignal
        await withTaskCancellationHandler {
            for await _ in signal.stream {}
        } onCancel: {
            signal.continuation.finish()
        }
    }

    /// Closes what the services used, once they have ended, and wakes whoever waits in ``closed()``.
    private func closeResources() async {
        await context.apps.close()
        context.blockingPool.shutdown()
        let waiters = lifecycle.withLock { lifecycle in
            lifecycle.phase = .closed
            defer { lifecycle.waiters = [] }
            return lifecycle.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once ``closeResources()`` has run.
    private func closed() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = lifecycle.withLock { lifecycle in
                guard lifecycle.phase != .closed else { return true }
                lifecycle.waiters.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }
}
