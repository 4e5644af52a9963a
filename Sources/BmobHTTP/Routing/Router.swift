package import BmobWire
import BmobServerCodecs

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

    /// Children and routes are small arrays searched linearly: a node has a handful of entries, and
    /// comparing a few short byte strings is cheaper than hashing the segment for a dictionary.
    private final class Node: @unchecked Sendable {
        // Invariant: nodes are mutated only by `add`, on a tree no other `Router` value shares (`add` copies a
        // shared tree first), so a router that has been handed to other threads is never mutated.
        /// Literal segments as UTF-8, matched byte for byte against the path's bytes.
        var literals: [(segment: [UInt8], node: Node)] = []
        var parameterName: String?
        var parameter: Node?
        var rest: [Route] = []
        var routes: [Route] = []

        func copy() -> Node {
            let node = Node()
            node.literals = literals.map { ($0.segment, $0.node.copy()) }
            node.parameterName = parameterName
            node.parameter = parameter?.copy()
            node.rest = rest
            node.routes = routes
            return node
        }

        func literal(_ segment: UnsafeBufferPointer<UInt8>) -> Node? {
            for entry in literals where entry.segment.withUnsafeBufferPointer({ ByteComparison.equal($0, segment) }) {
                return entry.node
            }
            return nil
        }

        static func setting(_ route: Route, in routes: inout [Route]) {
            routes.removeAll { $0.method == route.method }
            routes.append(route)
        }
    }

    private var root = Node()
    /// Routes in registration order.
    package private(set) var routes: [Route] = []
    /// Whether each route (by index) streams its body. Kept apart from ``Route`` so that the value every lookup
    /// returns stays as small as it was.
    private var streamedBodies: [Bool] = []

    package init() {}

    /// Adds a route and returns its index. A `HEAD` request is answered by the `GET` route when no `HEAD`
    /// route exists.
    ///
    /// - Parameters:
    ///   - bodyLimit: the largest body the route accepts (`nil`: the server default).
    ///   - streamsBody: whether the handler receives the body as it arrives (``HTTPRequest/bodyStream``)
    ///     instead of whole.
    @discardableResult
    package mutating func add(
        _ method: HTTPMethod, _ pattern: String, bodyLimit: Int? = nil, streamsBody: Bool = false
    ) -> Int {
        if !isKnownUniquelyReferenced(&root) { root = root.copy() }
        let route = Route(index: routes.count, method: method, pattern: pattern, bodyLimit: bodyLimit)
        routes.append(route)
        streamedBodies.append(streamsBody)
        var node = root
        let segments = pattern.split(separator: "/", omittingEmptySubsequences: true)
        for (position, segment) in segments.enumerated() {
            if segment == "**" {
                precondition(position == segments.count - 1, "'**' must be the last segment of \(pattern)")
                Node.setting(route, in: &node.rest)
                return route.index
            }
            if segment.first == ":" {
                let name = String(segment.dropFirst())
                precondition(node.parameterName == nil || node.parameterName == name, "conflicting parameter names in \(pattern)")
                node.parameterName = name
                if node.parameter == nil { node.parameter = Node() }
                node = node.parameter!
            } else {
                let bytes = Array(segment.utf8)
                if let child = bytes.withUnsafeBufferPointer({ node.literal($0) }) {
                    node = child
                } else {
                    let child = Node()
                    node.literals.append((bytes, child))
                    node = child
                }
            }
        }
        Node.setting(route, in: &node.routes)
        return route.index
    }

    /// Whether `route` streams its body (``add(_:_:bodyLimit:streamsBody:)``).
    package func streamsBody(_ route: Route) -> Bool {
        streamedBodies[route.index]
    }

    /// Whether any route streams its body.
    package var hasStreamedBodies: Bool {
        streamedBodies.contains(true)
    }

    /// The body policy `route` asks for: its limit, and whether it streams its body.
    package func bodyPolicy(_ route: Route) -> HTTPRequestBodyPolicy {
        HTTPRequestBodyPolicy(limit: route.bodyLimit, streamed: streamedBodies[route.index])
    }

    /// Finds the route for `method` and the raw (not yet percent-decoded) `path`.
    package func match(_ method: HTTPMethod, path: Substring) -> Match {
        // Over the path's bytes with integer offsets: `Substring` slicing and comparing cost more per step than
        // the rest of a match.
        var path = path
        guard let routes = path.withUTF8({ bytes in routes(for: bytes) }) else {
            return .notFound
        }
        if let route = routes.routes.first(where: { $0.method == method })
            ?? (method == .head ? routes.routes.first(where: { $0.method == .get }) : nil)
        {
            return .found(route, routes.parameters)
        }
        return .methodNotAllowed(routes.routes.map(\.method).sorted { $0.rawValue < $1.rawValue })
    }

    /// The routes at `path` and what their parameters captured, or `nil` when no pattern matches.
    private func routes(for path: UnsafeBufferPointer<UInt8>) -> (routes: [Route], parameters: RouteParameters)? {
        guard path.first == UInt8(ascii: "/") else { return nil }
        var end = path.count
        if end > 1, path[end - 1] == UInt8(ascii: "/") { end -= 1 }  // one optional trailing slash
        var parameters = RouteParameters()
        guard let routes = find(root, path, from: 1, to: end, parameters: &parameters) else { return nil }
        return (routes, parameters)
    }

    /// Matches `path[start..<end]` (what is left after the segments already consumed) below `node`.
    private func find(
        _ node: Node, _ path: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, parameters: inout RouteParameters
    ) -> [Route]? {
        // Only the path "/" leaves nothing to match at the root.
        if start == end {
            return node.routes.isEmpty ? nil : node.routes
        }
        var slash = start
        while slash < end, path[slash] != UInt8(ascii: "/") { slash += 1 }
        if slash == start { return nil }  // `//` inside a path
        let isLast = slash == end
        let rest = isLast ? end : slash + 1
        if !isLast, rest == end { return nil }  // a second trailing slash
        let segment = UnsafeBufferPointer(rebasing: path[start..<slash])
        if let child = node.literal(segment),
            let found = isLast ? (child.routes.isEmpty ? nil : child.routes) : find(child, path, from: rest, to: end, parameters: &parameters)
        {
            return found
        }
        if let child = node.parameter, let name = node.parameterName {
            var attempt = parameters
            attempt.append(name: name, value: QueryString.decode(segment, plusIsSpace: false))
            if let found = isLast ? (child.routes.isEmpty ? nil : child.routes) : find(child, path, from: rest, to: end, parameters: &attempt) {
                parameters = attempt
                return found
            }
        }
        if !node.rest.isEmpty {
            parameters.append(name: "**", value: String(decoding: UnsafeBufferPointer(rebasing: path[start..<end]), as: UTF8.self))
            return node.rest
        }
        return nil
    }
}
