public import BmobWire

/// The Swift cloud functions a server runs, by name (`POST /1/functions/<name>`, native `/8/functions`), and its
/// triggers, by event and class (``TriggerEvent``), which every door runs since they hang off the operation layer.
///
/// A function takes a ``CloudFunctionRequest`` and answers a JSON value (the `result` clients receive); it may
/// throw a ``CloudFunctionError`` to answer a Bmob code of its own; any other error answers 310 and is logged.
public struct CloudFunctions: Sendable {
    /// A function's body.
    public typealias Body = @Sendable (CloudFunctionRequest) async throws -> JSONValue

    /// A trigger's body: `nil` to let the operation go as it is, or what the event allows it to answer (see
    /// ``TriggerEvent``); a ``CloudFunctionError`` refuses a `before…` operation with its code.
    public typealias TriggerBody = @Sendable (TriggerRequest) async throws -> JSONValue?

    private var functions: [String: Body] = [:]
    private var triggers: [String: TriggerBody] = [:]
    /// The sync functions (``query(_:args:_:)``, ``mutation(_:args:_:)``, ``action(_:args:_:)``).
    package var sync = SyncFunctions()

    /// No functions.
    public init() {}

    /// Adds (or replaces) the function `name`.
    public mutating func register(_ name: String, _ body: @escaping Body) {
        functions[name] = body
    }

    /// The function `name`, if registered.
    package subscript(name: String) -> Body? {
        functions[name]
    }

    /// Adds (or replaces) the trigger for `event` on `className`.
    public mutating func on(_ event: TriggerEvent, className: String, _ body: @escaping TriggerBody) {
        triggers[Self.key(event, className)] = body
    }

    /// The trigger for `event` on `className`, if registered.
    package func trigger(_ event: TriggerEvent, className: String) -> TriggerBody? {
        triggers.isEmpty ? nil : triggers[Self.key(event, className)]
    }

    /// Whether any trigger is registered (when none is, operations skip the trigger layer entirely).
    package var hasTriggers: Bool {
        !triggers.isEmpty
    }

    private static func key(_ event: TriggerEvent, _ className: String) -> String {
        event.rawValue + "\n" + className
    }

    /// The registered names.
    package var names: [String] {
        functions.keys.sorted()
    }
}
