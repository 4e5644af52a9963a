package import BmobWire

/// The Swift cloud functions a server runs, by name (`POST /1/functions/<name>`, native `/8/functions`).
///
/// A function takes a ``CloudFunctionRequest`` and answers a JSON value (the `result` clients receive); it may
/// throw a ``CloudFunctionError`` to answer a Bmob code of its own; any other error answers 310 and is logged.
package struct CloudFunctions: Sendable {
    /// A function's body.
    package typealias Body = @Sendable (CloudFunctionRequest) async throws -> JSONValue

    private var functions: [String: Body] = [:]

    /// No functions.
    package init() {}

    /// Adds (or replaces) the function `name`.
    package mutating func register(_ name: String, _ body: @escaping Body) {
        functions[name] = body
    }

    /// The function `name`, if registered.
    package subscript(name: String) -> Body? {
        functions[name]
    }

    /// The registered names.
    package var names: [String] {
        functions.keys.sorted()
    }
}
