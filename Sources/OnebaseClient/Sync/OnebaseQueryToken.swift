package import BmobWire

/// A live query's identity: its canonical function path and arguments. Two subscriptions with equal tokens share
/// one server query (`sync.md` §1.3, Convex's `serializePathAndArgs`).
///
/// ``canonical`` is the JSON text `{"args":…,"udfPath":…}` with sorted keys: the de-duplication key, and the offline
/// cache's key.
package struct OnebaseQueryToken: Sendable, Hashable {
    /// The function.
    package let path: SyncFunctionPath
    /// The arguments.
    package let arguments: [String: JSONValue]
    /// `{"args":{…},"udfPath":"module:export"}`, keys sorted.
    package let canonical: String

    /// The token of `path` with `arguments`.
    package init(path: SyncFunctionPath, arguments: [String: JSONValue]) {
        self.path = path
        self.arguments = arguments
        canonical = JSONValue.object(["udfPath": .string(path.rawValue), "args": .object(arguments)]).jsonString
    }

    /// The token of the function named `name` with `arguments`.
    ///
    /// - Throws: ``OnebaseError`` when `name` is not a valid `module:export` name.
    init(name: String, arguments: [String: OnebaseValue]) throws(OnebaseError) {
        do throws(SyncProtocolError) {
            self.init(path: try SyncFunctionPath(validating: name), arguments: arguments.mapValues(\.json))
        } catch {
            throw OnebaseError(message: "invalid function name \"\(name.prefix(200))\": \(error.message)")
        }
    }

    package static func == (lhs: Self, rhs: Self) -> Bool { lhs.canonical == rhs.canonical }
    package func hash(into hasher: inout Hasher) { hasher.combine(canonical) }
}
