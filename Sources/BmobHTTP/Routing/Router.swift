package import BmobWire

/// Maps method and path to a handler.
///
/// Patterns are `/`-separated segments: literal text, `:name` (one segment, captured percent-decoded), and a
/// final `**` (the rest of the path, captured raw under `"**"`). Every route also matches with one trailing
/// slash (`/1/timestamp/` reaches `/1/timestamp`), which several Bmob clients send. Literal segments beat
/// parameters, which beat `**`.
package struct Router<Handler: Sendable>: Sendable {
    /// A registered route.
    package struct Route: Sendable {
        package var method: HTTPMethod
        package var pattern: String
        /// Largest body accepted by this route (`nil`: the server default).
        package var bodyLimit: Int?
        package var handler: Handler
    }

    /// The outcome of a lookup.
    package enum Match: Sendable {
        case found(Route, RouteParameters)
        /// The path exists for other methods.
        case methodNotAllowed([HTTPMethod])
        case notFound
    }

    private final class Node: @unchecked Sendable {
        // Invariant: nodes are mutated only while the router is being built (before it is shared); after that
        // they are read-only. `Router` copies the tree on write (`ensureUnique`) so values never share a
        // mutable node.
        var literals: [String: Node] = [:]
        var parameter: (name: String, node: Node)?
        var rest: [HTTPMethod: Route] = [:]
        var routes: [HTTPMethod: Route] = [:]

        func copy() -> Node {
            let node = Node()
            node.literals = literals.mapValues { $0.copy() }
            node.parameter = parameter.map { ($0.name, $0.node.copy()) }
            node.rest = rest
            node.routes = routes
            return node
        }
    }

    private var root = Node()

    package init() {}

    /// Adds a route. A `HEAD` request is answered by the `GET` route when no `HEAD` route exists.
    package mutating func add(_ method: HTTPMethod, _ pattern: String, bodyLimit: Int? = nil, _ handler: Handler) {
        if !isKnownUniquelyReferenced(&root) { root = root.copy() }
        let route = Route(method: method, pattern: pattern, bodyLimit: bodyLimit, handler: handler)
        var node = root
        let segments = pattern.split(separator: "/", omittingEmptySubsequences: true)
        for (index, segment) in segments.enumerated() {
            if segment == "**" {
                precondition(index == segments.count - 1, "'**' must be the last segment of \(pattern)")
                node.rest[method] = route
                return
            }
            if segment.first == ":" {
                let name = String(segment.dropFirst())
                if let existing = node.parameter {
                    precondition(existing.name == name, "conflicting parameter names in \(pattern)")
                    node = existing.node
                } else {
                    let child = Node()
                    node.parameter = (name, child)
                    node = child
                }
            } else {
                let key = String(segment)
                if let child = node.literals[key] {
                    node = child
                } else {
                    let child = Node()
                    node.literals[key] = child
                    node = child
                }
            }
        }
        node.routes[method] = route
    }

    /// Finds the route for `method` and the raw (not yet decoded) `path`.
    package func match(_ method: HTTPMethod, path: some StringProtocol) -> Match {
        var segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        if segments.last == "" { segments = segments.dropLast() }  // one optional trailing slash
        var parameters = RouteParameters()
        guard let methods = Self.find(root, segments[...], path: path, parameters: &parameters) else {
            return .notFound
        }
        if let route = methods[method] ?? (method == .head ? methods[.get] : nil) {
            return .found(route, parameters)
        }
        return .methodNotAllowed(methods.keys.sorted { $0.rawValue < $1.rawValue })
    }

    private static func find<S: StringProtocol>(
        _ node: Node,
        _ segments: ArraySlice<S.SubSequence>,
        path: S,
        parameters: inout RouteParameters
    ) -> [HTTPMethod: Route]? {
        guard let segment = segments.first else {
            return node.routes.isEmpty ? nil : node.routes
        }
        if segment.isEmpty { return nil }  // `//` inside a path
        let remaining = segments.dropFirst()
        if let child = node.literals[String(segment)],
            let found = find(child, remaining, path: path, parameters: &parameters)
        {
            return found
        }
        if let (name, child) = node.parameter {
            var attempt = parameters
            attempt.append(name: name, value: QueryString.decode(segment, plusIsSpace: false))
            if let found = find(child, remaining, path: path, parameters: &attempt) {
                parameters = attempt
                return found
            }
        }
        if !node.rest.isEmpty {
            let restText = path[segment.startIndex...]
            parameters.append(name: "**", value: String(restText.hasSuffix("/") ? restText.dropLast() : restText))
            return node.rest
        }
        return nil
    }
}
