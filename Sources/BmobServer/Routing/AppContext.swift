package import BmobIO
package import BmobStore

/// Who is calling, once the Bmob app headers have been checked. Routes registered with
/// ``BmobRouter/app(_:_:bodyLimit:_:)`` cannot run without one.
package struct AppContext: Sendable {
    package var app: App
    /// The app's database.
    package var store: any Store
    /// The caller presented the Master Key: permissions do not apply.
    package var isMaster: Bool
    /// The `X-Bmob-Session-Token` header, remembered for user operations.
    package var sessionToken: String?
    /// The protocol the request came in through.
    package var frontDoor: FrontDoor
    /// The client's socket address; rendered as text only by the few operations that need it.
    package var clientSocketAddress: SocketAddress?
    /// The request's trace, which logs 5xx answers with its id; `nil` outside a request (tests).
    package var trace: RequestTrace?
    /// Who the request acts as, once resolved (``CallerResolver``): the operation runner resolves it once per
    /// request or batch element, and services read it from here.
    package var caller: Caller?
    /// The app's recently resolved sessions.
    package var sessions: SessionCache

    /// The client's IP address, for per-client limits (failed logins, wrong codes).
    package var clientAddress: String? {
        clientSocketAddress?.host
    }

    /// Who the journal records as the author of writes: the resolved caller's user id (`master` for the master
    /// key, none for an anonymous caller), and the front door (`rest`, `native`) beside it.
    package var journalAuthor: JournalAuthor {
        JournalAuthor(
            caller: caller?.journalAuthor ?? (isMaster ? "master" : nil), door: acting ?? frontDoor.rawValue)
    }

    /// The cloud function or trigger whose data calls these are (`function:<name>`, `trigger:<event>:<Class>`):
    /// the journal records it as the door, beside the caller it acts for.
    package var acting: String?

    /// How objects are rendered for this app, with `_User` objects whole (dates, and a user's own login).
    package var renderer: ObjectRenderer {
        ObjectRenderer(offsetSeconds: app.dateOffsetSeconds)
    }

    /// How objects are rendered for a caller with `scope`: `_User` objects lose what the caller may not see.
    package func renderer(for scope: AccessScope) -> ObjectRenderer {
        ObjectRenderer(
            offsetSeconds: app.dateOffsetSeconds,
            privacy: UserPrivacy(protectedFields: app.security.protectedUserFields, viewer: scope))
    }

    package init(
        runtime: AppRuntime, isMaster: Bool, sessionToken: String?, frontDoor: FrontDoor = .rest,
        clientAddress: SocketAddress? = nil
    ) {
        self.clientSocketAddress = clientAddress
        self.app = runtime.app
        self.store = runtime.store
        self.sessions = runtime.sessions
        self.isMaster = isMaster
        self.sessionToken = sessionToken
        self.frontDoor = frontDoor
    }
}
