package import BmobWire

/// Maps method and path to a route number; the caller keeps the handlers (see `BmobRouter`).
///
/// Patterns are `/`-separated segments: literal text, `:name` (one segment, captured percent-decoded), and a
/// final `**` (the rest of the path, captured raw under `"**"`). Every route also matches with one trailing
/// slash (`/1/timestamp/` reaches `/1/timestamp`), which several Bmob clients send. Literal segments beat
/// parameters, which beat `**`.
///
/// Not generic on purpose: lookups run once per request, and unspecialised generic code across module
/// boundaries pays for runtime metadata on every call.
package struct Router: Sendable {
    /// A registered route.
    package struct Route: Sendable, Equatable {
        /// Position in registration order; the caller's handler index.
        package var index: Int
        package var method: HTTPMethod
        package var pattern: String
        /// Largest body accepted by this route (`nil`: the server default).
        package var bodyLimit: Int?
    }

    /// The outcome of a lookup.
    package enum Match: Sendable, Equatable {
        case found(Route, RouteParameters)
        /// The path exists for other methods.
        case methodNotAllowed([HTTPMethod])
        case notFound
    }

    private final class Node: @unchecked Sendable {
        // Invariant: nodes are mutated only by `add`, on a tree no other `Router` value shares (`add` copies a
        // shared tree first), so a router that has been handed to other threads is never mutated.
        var literals: [String: Node] = [:]
        var parameterName: String?
        var parameter: Node?
        var rest: [HTTPMethod: Route] = [:]
        var routes: [HTTPMethod: Route] = [:]

        func copy() -> Node {
            let node = Node()
            node.literals = literals.mapValues { $0.copy() }
            node.parameterName = parameterName
            node.parameter = parameter?.copy()
            node.rest = rest
            node.routes = routes
            return node
        }
    }

    private var root = Node()
    /// Routes in registration order.
    package private(set) var routes: [Route] = []

    package init() {}

    /// Adds a route and returns its index. A `HEAD` request is answered by the `GET` route when no `HEAD`
    /// route exists.
    @discardableResult
    package mutating func add(_ method: HTTPMethod, _ pattern: String, bodyLimit: Int? = nil) -> Int {
        if !isKnownUniquelyReferenced(&root) { root = root.copy() }
        let route = Route(index: routes.count, method: method, pattern: pattern, bodyLimit: bodyLimit)
        routes.append(route)
        var node = root
        let segments = pattern.split(separator: "/", omittingEmptySubsequences: true)
        for (position, segment) in segments.enumerated() {
            if segment == "**" {
                precondition(position == segments.count - 1, "'**' must be the last segment of \(pattern)")
                node.rest[method] = route
                return route.index
            }
            if segment.first == ":" {
                let name = String(segment.dropFirst())
                precondition(node.parameterName == nil || node.parameterName == name, "conflicting parameter names in \(pattern)")
                node.parameterName = name
                if node.parameter == nil { node.parameter = Node() }
                node = node.parameter!
            } else {
                let key = String(segment)
                if node.literals[key] == nil { node.literals[key] = Node() }
                node = node.literals[key]!
            }
        }
        node.routes[method] = route
        return route.index
    }

    /// Finds the route for `method` and the raw (not yet percent-decoded) `path`.
    package func match(_ method: HTTPMethod, path: Substring) -> Match {
        var segments: [Range<String.Index>] = []
        var utf8 = path.utf8
        guard utf8.first == UInt8(ascii: "/") else { return .notFound }
        utf8 = utf8.dropFirst()
        // Split on "/" without allocating substrings; drop one trailing slash.
        var start = utf8.startIndex
        var index = start
        while index < utf8.endIndex {
            if utf8[index] == UInt8(ascii: "/") {
                segments.append(start..<index)
                start = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        if start < utf8.endIndex { segments.append(start..<utf8.endIndex) }
        var parameters = RouteParameters()
        guard let methods = find(root, path: path, segments: segments[...], parameters: &parameters) else {
            return .notFound
        }
        if let route = methods[method] ?? (method == .head ? methods[.get] : nil) {
            return .found(route, parameters)
        }
        return .methodNotAllowed(methods.keys.sorted { $0.rawValue < $1.rawValue })
    }

    private func find(
        _ node: Node,
        path: Substring,
        segments: ArraySlice<Range<String.Index>>,
        parameters: inout RouteParameters
    ) -> [HTTPMethod: Route]? {
        guard let range = segments.first else {
            return node.routes.isEmpty ? nil : node.routes
        }
        if range.isEmpty { return nil }  // `//` inside a path
        let segment = path[range]
        let remaining = segments.dropFirst()
        if let child = node.literals[String(segment)],
            let found = find(child, path: path, segments: remaining, parameters: &parameters)
        {
            return found
        }
        if let child = node.parameter, let name = node.parameterName {
            var attempt = parameters
            attempt.append(name: name, value: QueryString.decode(segment, plusIsSpace: false))
            if let found = find(child, path: path, segments: remaining, parameters: &attempt) {
                parameters = attempt
                return found
            }
        }
        if !node.rest.isEmpty {
            var restText = path[range.lowerBound...]
            if restText.hasSuffix("/") { restText = restText.dropLast() }
            parameters.append(name: "**", value: String(restText))
            return node.rest
        }
        return nil
    }
}
