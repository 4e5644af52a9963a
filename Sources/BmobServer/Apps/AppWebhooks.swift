package import BmobWire

/// An app's webhooks: cloud functions and triggers served by any HTTP server, so that `bmob serve` users need no
/// Swift (`apps.json`: `"webhooks": {"functions": {"<name>": "<url>"}, "triggers": {"<Class>": {"beforeSave":
/// "<url>", …}}, "secret": "<text>"}`). Calls are signed with the secret (``WebhookClient``).
package struct AppWebhooks: Sendable, Equatable {
    /// Function name → URL.
    package var functions: [String: String] = [:]
    /// Class → event → URL.
    package var triggers: [String: [TriggerEvent: String]] = [:]
    /// Sync function name (canonical) → its webhook.
    package var sync: [String: SyncWebhook] = [:]
    /// The HMAC key of the calls' signatures (its UTF-8 bytes).
    package var secret: String = ""

    /// None.
    package init() {}

    /// Whether no webhook is set.
    package var isEmpty: Bool {
        functions.isEmpty && triggers.isEmpty && sync.isEmpty
    }

    /// As stored in `apps.json`.
    package var json: JSONValue {
        var triggerMembers: [String: JSONValue] = [:]
        for (className, events) in triggers {
            triggerMembers[className] = .object(
                Dictionary(uniqueKeysWithValues: events.map { ($0.key.rawValue, JSONValue.string($0.value)) }))
        }
        var members: [String: JSONValue] = [
            "functions": .object(functions.mapValues { .string($0) }), "triggers": .object(triggerMembers),
            "secret": .string(secret),
        ]
        if !sync.isEmpty { members["sync"] = .object(sync.mapValues(\.json)) }
        return .object(members)
    }

    /// Reads ``json``; a missing member is no webhooks.
    ///
    /// - Throws: ``ConfigurationError`` for a URL that is not `http(s)://`, an unknown event, a webhook without a
    ///   secret.
    package init(json: JSONValue?) throws(ConfigurationError) {
        guard let json, json != .null else { return }
        guard case .object(let members) = json else { throw ConfigurationError("apps.json: webhooks must be an object") }
        secret = members["secret"]?.stringValue ?? ""
        for (name, value) in members["functions"]?.objectValue ?? [:] {
            functions[name] = try Self.url(value, "function \(name)")
        }
        for (className, value) in members["triggers"]?.objectValue ?? [:] {
            for (eventName, url) in value.objectValue ?? [:] {
                guard let event = TriggerEvent(rawValue: eventName) else {
                    throw ConfigurationError("apps.json: webhooks of \(className): unknown trigger '\(eventName)'")
                }
                triggers[className, default: [:]][event] = try Self.url(url, "\(eventName) of \(className)")
            }
        }
        for (name, value) in members["sync"]?.objectValue ?? [:] {
            let path: SyncFunctionPath
            do throws(SyncProtocolError) {
                path = try SyncFunctionPath(validating: name)
            } catch {
                throw ConfigurationError("apps.json: sync webhook '\(name.prefix(80))': \(error.message)")
            }
            guard let kind = value["kind"]?.stringValue.flatMap(SyncFunctionKind.init(rawValue:)) else {
                throw ConfigurationError("apps.json: sync webhook \(name): kind must be query, mutation or action")
            }
            let reads = value["reads"]?.arrayValue?.compactMap(\.stringValue) ?? []
            if kind == .query, reads.isEmpty {
                throw ConfigurationError("apps.json: sync webhook \(name): a query names the classes it reads in \"reads\"")
            }
            sync[path.rawValue] = SyncWebhook(kind: kind, url: try Self.url(value["url"] ?? .null, "sync function \(name)"), reads: reads)
        }
        if !isEmpty, secret.utf8.count < 16 {
            throw ConfigurationError("apps.json: webhooks need a secret of at least 16 characters")
        }
    }

    private static func url(_ value: JSONValue, _ what: String) throws(ConfigurationError) -> String {
        guard let text = value.stringValue, text.hasPrefix("http://") || text.hasPrefix("https://"), text.utf8.count <= 2048
        else { throw ConfigurationError("apps.json: the webhook of \(what) must be an http:// or https:// URL") }
        return text
    }
}
