package import BmobWire

/// A sync function served by a webhook (`apps.json`: `"webhooks": {"sync": {"notes:best": {"kind": "query",
/// "url": "https://…", "reads": ["notes"]}}}`), for `bmob serve` users who write no Swift. It is called as cloud
/// function webhooks are (``WebhookClient``, signed with the app's webhook secret) with
/// `{"function","kind","args","user","master"}` and answers `{"result": …}` or `{"error": {"code","message"}}`.
///
/// A webhook reads and writes through the app's REST API on its own, so the server cannot see what it reads: a
/// query declares the classes it reads (`reads`), and re-runs whenever one of them changes. A mutation webhook is
/// not one transaction (its REST writes are each their own).
package struct SyncWebhook: Sendable, Equatable {
    /// Query, mutation or action.
    package var kind: SyncFunctionKind
    /// Where it is served.
    package var url: String
    /// The classes a query reads (every change of one re-runs it).
    package var reads: [String]

    package init(kind: SyncFunctionKind, url: String, reads: [String] = []) {
        self.kind = kind
        self.url = url
        self.reads = reads
    }

    /// As stored in `apps.json`.
    package var json: JSONValue {
        var members: [String: JSONValue] = ["kind": .string(kind.rawValue), "url": .string(url)]
        if kind == .query { members["reads"] = .array(reads.map(JSONValue.string)) }
        return .object(members)
    }
}
