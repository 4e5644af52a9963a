import BmobCore
import Foundation
import BmobWire

/// Cloud functions: runs a function registered on the server (`/8/functions`) and returns its result.
///
/// On this encrypted path Bmob's servers hand every parameter value to the function as a string (`42` arrives as
/// `"42"`, `true` as `"true"`, `[1,2,3]` as `"[1,2,3]"`), and this server does the same; pass Swift values as
/// they are and parse them in the function. A function often answers JSON text: the typed overloads decode
/// either a JSON value or JSON text inside a string.
public enum BmobCloud {
    /// Runs `function` without parameters.
    ///
    /// - Returns: the function's result as plain values (`String`, `Int`, `Double`, `Bool`, arrays,
    ///   `[String: Any]`, `NSNull`), or `nil` when it answered nothing.
    /// - Throws: ``BmobError`` (`serverError` 311 for an unknown function, the function's own code when it
    ///   rejected the call).
    @discardableResult
    public static func run(function: String) async throws -> Any? {
        try await run(function: function, params: [:])
    }

    /// Runs `function` with `params` (values the SDK can encode: strings, numbers, booleans, dates, arrays,
    /// dictionaries, the SDK's own value types).
    ///
    /// - Returns: the function's result as plain values, or `nil` when it answered nothing.
    /// - Throws: ``BmobError``.
    @discardableResult
    public static func run(function: String, params: [String: Any]) async throws -> Any? {
        let value = try await call(function, try encode(params))
        if case .null = value { return nil }
        return BmobValueCoding.plainValue(value)
    }

    /// Runs `function` without parameters and decodes its result as `T`.
    ///
    /// - Throws: ``BmobError/jsonParsingFailed`` when the result does not decode as `T`, and the errors of
    ///   ``run(function:params:)->Any?``.
    public static func run<T: Decodable>(function: String) async throws -> T {
        try await run(function: function, params: [:])
    }

    /// Runs `function` with `params` and decodes its result as `T` (from a JSON value, or from JSON text the
    /// function answered as a string).
    ///
    /// - Throws: ``BmobError/jsonParsingFailed`` when the result does not decode as `T`, and the errors of
    ///   ``run(function:params:)->Any?``.
    public static func run<T: Decodable>(function: String, params: [String: Any]) async throws -> T {
        try decode(T.self, from: try await call(function, try encode(params)))
    }

    /// Starts `function` with `params` and returns at once, without waiting for its result or its errors.
    public static func fire(function: String, params: [String: Any] = [:]) {
        guard let members = try? encode(params) else { return }
        Task.detached { _ = try? await call(function, members) }
    }

    /// The function's result: `data.results` of the answer.
    private static func call(_ function: String, _ params: [String: JSONValue]) async throws(BmobError) -> JSONValue {
        guard !function.isEmpty else { throw BmobError.invalidParameter(reason: "the function name is empty") }
        var data = params
        data["_e"] = .string(function)
        let answer = try await BmobClient.shared.call("functions", ["data": .object(data)])
        return answer["results"] ?? answer["result"] ?? .null
    }

    private static func encode(_ params: [String: Any]) throws(BmobError) -> [String: JSONValue] {
        var members: [String: JSONValue] = [:]
        for (name, value) in params { members[name] = try BmobValueCoding.encode(value) }
        return members
    }

    /// `T` from `value`, or from the JSON text `value` holds when it is a string that does not decode as is.
    static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws(BmobError) -> T {
        let decoder = JSONDecoder()
        if let decoded = try? decoder.decode(T.self, from: Data(value.jsonBytes)) { return decoded }
        if case .string(let text) = value, let decoded = try? decoder.decode(T.self, from: Data(text.utf8)) {
            return decoded
        }
        throw BmobError.jsonParsingFailed
    }
}
