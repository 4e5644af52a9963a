/// What an optimistic update sees and changes: the current result of every query the client knows (subscribed
/// queries' results, with earlier optimistic updates applied).
///
/// ```swift
/// try await client.mutation("notes:add", ["text": "Hello"]) { store in
///     let current = store.get("notes:list")?.array ?? []
///     store.set("notes:list", [:], .array(current + [["text": "Hello"]]))
/// }
/// ```
///
/// The update closure must be a pure function of the store: it runs again, on a fresh store, whenever server
/// results change while its mutation is in flight. A store is only valid inside the closure it was passed to.
public final class OnebaseLocalStore {
    /// The results by query; `nil` is loading.
    var values: [OnebaseQueryToken: OnebaseValue?]

    init(values: [OnebaseQueryToken: OnebaseValue?]) {
        self.values = values
    }

    /// The current result of a query.
    ///
    /// - Parameters:
    ///   - name: the query function, `module:export`.
    ///   - args: its arguments.
    /// - Returns: the result; `nil` when it is loading, failed, unknown, or `name` is not a valid function name.
    public func get(_ name: String, _ args: [String: OnebaseValue] = [:]) -> OnebaseValue? {
        guard let token = try? OnebaseQueryToken(name: name, arguments: args) else { return nil }
        return values[token] ?? nil
    }

    /// Overrides the result of a query until the mutation finishes. A query nobody subscribes to keeps the value
    /// too, for later updates to read; nothing is sent.
    ///
    /// - Parameters:
    ///   - name: the query function, `module:export` (an invalid name is ignored).
    ///   - args: its arguments.
    ///   - value: the new result; `nil` shows the query as loading.
    public func set(_ name: String, _ args: [String: OnebaseValue], _ value: OnebaseValue?) {
        guard let token = try? OnebaseQueryToken(name: name, arguments: args) else { return }
        values[token] = .some(value)
    }
}

/// A store lives inside one update closure call, on the client's thread; it is not shared.
@available(*, unavailable)
extension OnebaseLocalStore: Sendable {}
