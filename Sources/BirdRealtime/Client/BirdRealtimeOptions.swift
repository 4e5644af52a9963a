public import Dispatch
public import Foundation

/// How a ``BirdRealtime`` client connects and authorizes.
///
/// Only ``appKey`` is required, plus either ``region`` (`us1`, `eu1`) or an explicit ``wsHost``. The edge host
/// of a region is `ws-{region}.bird.com` on port 443; ``wsHost`` (`host` or `host:port`, `[v6]:port` for IPv6)
/// wins over ``region``. Connections use TLS (`wss`) except with ``allowInsecure`` on a loopback host.
public struct BirdRealtimeOptions: Sendable {
    /// Signs a private or presence channel subscription with your own network stack: given the connection id
    /// and the channel name, return the signature (and presence member data). Throwing makes the channel emit
    /// ``BirdProtocol/Event/subscriptionError``.
    public typealias Authorizer =
        @Sendable (_ connectionId: String, _ channelName: String) async throws -> BirdAuthorization

    /// The app's public key; it names the app on the edge and authorizes nothing.
    public var appKey: String
    /// The edge region, `us1` or `eu1`: the host `ws-{region}.bird.com`.
    public var region: String?
    /// An explicit edge host, `host` or `host:port` (IPv6 in brackets); wins over ``region``.
    public var wsHost: String?
    /// Where every handler runs; the main queue by default.
    public var deliveryQueue: DispatchQueue
    /// Your backend's channel authorization endpoint: the client POSTs JSON
    /// `{"connection_id", "channel_name"}` and expects `{"auth", "member_data"?}`.
    public var authEndpoint: URL?
    /// Header fields sent with every auth endpoint and member auth endpoint request.
    public var authHeaders: [String: String]
    /// Signs channel subscriptions in place of ``authEndpoint``.
    public var authorizer: Authorizer?
    /// Your backend's member endpoint for ``BirdRealtime/signin()``: the client POSTs JSON `{"connection_id"}`
    /// and expects `{"auth", "user_data"}` (`member_data` is accepted for `user_data`).
    public var memberAuthEndpoint: URL?
    /// Allows `ws://` (no TLS), but only to `localhost`, `127.0.0.1` and `[::1]`; every other host stays `wss`
    /// even when this is set, so a configuration copied from a development target cannot downgrade production.
    public var allowInsecure: Bool

    /// Options.
    ///
    /// - Parameters:
    ///   - appKey: the app's public key.
    ///   - region: `us1` or `eu1`.
    ///   - wsHost: an explicit edge host, `host` or `host:port`; wins over `region`.
    ///   - deliveryQueue: where handlers run; the main queue by default.
    ///   - authEndpoint: the channel authorization endpoint.
    ///   - authHeaders: header fields for the auth endpoints.
    ///   - authorizer: signs channels in place of `authEndpoint`.
    ///   - memberAuthEndpoint: the member endpoint for ``BirdRealtime/signin()``.
    ///   - allowInsecure: allows `ws://` to loopback hosts only.
    public init(
        appKey: String,
        region: String? = nil,
        wsHost: String? = nil,
        deliveryQueue: DispatchQueue = .main,
        authEndpoint: URL? = nil,
        authHeaders: [String: String] = [:],
        authorizer: Authorizer? = nil,
        memberAuthEndpoint: URL? = nil,
        allowInsecure: Bool = false
    ) {
        self.appKey = appKey
        self.region = region
        self.wsHost = wsHost
        self.deliveryQueue = deliveryQueue
        self.authEndpoint = authEndpoint
        self.authHeaders = authHeaders
        self.authorizer = authorizer
        self.memberAuthEndpoint = memberAuthEndpoint
        self.allowInsecure = allowInsecure
    }
}
