public import BmobWire

/// The sync functions a server runs, by name (`module:export`, such as `notes:best`), for `OnebaseClient`s and
/// the sync protocol (`/apps/<applicationId>/api/<version>/sync`): queries, mutations and actions. They are
/// registered on ``CloudFunctions`` beside Bmob cloud functions (``CloudFunctions/query(_:args:_:)`` …).
///
/// Every class also has built-in functions, so a plain server needs none of its own: `<Class>:list`,
/// `<Class>:get`, `<Class>:add`, `<Class>:update`, `<Class>:remove`. A registered function of the same name
/// replaces the built-in one.
public struct SyncFunctions: Sendable {
    /// A query's body: reads through ``SyncQueryContext/db`` only, with no other effect, so that it can be run again
    /// whenever a commit touches what it read.
    public typealias QueryBody = @Sendable (SyncQueryContext, [String: JSONValue]) throws -> JSONValue
    /// A mutation's body: reads and writes through ``SyncMutationContext/db``, all in one transaction.
    public typealias MutationBody = @Sendable (SyncMutationContext, [String: JSONValue]) throws -> JSONValue
    /// An action's body: may call out (network, mail …) and run queries and mutations; not transactional, not live.
    public typealias ActionBody = @Sendable (SyncActionContext, [String: JSONValue]) async throws -> JSONValue

    /// A registered function.
    package enum Function: Sendable {
        case query(QueryBody)
        case mutation(MutationBody)
        case action(ActionBody)

        /// Its kind.
        package var kind: SyncFunctionKind {
            switch self {
            case .query: .query
            case .mutation: .mutation
            case .action: .action
            }
        }
    }

    /// A registered function with its argument validators (`nil`: any arguments).
    package struct Entry: Sendable {
        package var function: Function
        package var arguments: [String: SyncArgument]?
    }

    private var entries: [String: Entry] = [:]

    /// No functions.
    public init() {}

    /// The function registered under `path`, if any.
    package subscript(path: SyncFunctionPath) -> Entry? {
        entries[path.rawValue]
    }

    /// Whether any function is registered.
    package var isEmpty: Bool { entries.isEmpty }

    /// Adds (or replaces) a function under `name`, canonicalized (`notes.js:list` is `notes:list`, `notes` is
    /// `notes:default`). A name that is not a valid function name stops the program: it is a programming error.
    package mutating func register(_ name: String, arguments: [String: SyncArgument]?, _ function: Function) {
        let path: SyncFunctionPath
        do {
            path = try SyncFunctionPath(validating: name)
        } catch {
            preconditionFailure("'\(name)' is not a sync function name: \(error.message)")
        }
        entries[path.rawValue] = Entry(function: function, arguments: arguments)
    }
}

/// The three kinds of sync functions.
package enum SyncFunctionKind: String, Sendable {
    case query, mutation, action

    /// "a query", "a mutation", "an action".
    package var withArticle: String {
        self == .action ? "an action" : "a \(rawValue)"
    }
}

extension CloudFunctions {
    /// Adds (or replaces) the sync query `name` (`"notes:best"`), live for every client that subscribes to it.
    ///
    /// ```swift
    /// functions.query("notes:best", args: ["limit": .optional(.int)]) { ctx, args in
    ///     let limit = Int(args["limit"]?.int64Value ?? 3)
    ///     return .array(try ctx.db.list("notes", order: "-likes", limit: limit).map(JSONValue.object))
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - args: the arguments it takes and their shapes, checked before `body` runs; `nil` takes any.
    ///   - body: reads through `ctx.db` only (it runs again whenever a commit touches what it read).
    public mutating func query(
        _ name: String, args: [String: SyncArgument]? = nil, _ body: @escaping SyncFunctions.QueryBody
    ) {
        sync.register(name, arguments: args, .query(body))
    }

    /// Adds (or replaces) the sync mutation `name` (`"notes:like"`): its reads and writes through `ctx.db` commit
    /// together when it returns, and none do when it throws; each request runs once.
    public mutating func mutation(
        _ name: String, args: [String: SyncArgument]? = nil, _ body: @escaping SyncFunctions.MutationBody
    ) {
        sync.register(name, arguments: args, .mutation(body))
    }

    /// Adds (or replaces) the sync action `name` (`"emails:sendWelcome"`): it may call out and run queries and
    /// mutations through `ctx`; it is neither transactional nor live.
    public mutating func action(
        _ name: String, args: [String: SyncArgument]? = nil, _ body: @escaping SyncFunctions.ActionBody
    ) {
        sync.register(name, arguments: args, .action(body))
    }
}
