/// Flags of one command, parsed as `--name value` or `--name=value`, and switches (`--name` alone); anything else
/// is an error.
package struct CommandLineArguments {
    package private(set) var values: [String: String] = [:]
    /// The switches given.
    package private(set) var switchesGiven: Set<String> = []

    /// Parses `arguments`, accepting only `allowed` flags and `switches` (which take no value).
    package init(_ arguments: ArraySlice<String>, allowed: Set<String>, switches: Set<String> = []) throws(UsageError) {
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            guard argument.hasPrefix("--") else { throw UsageError("unexpected argument '\(argument)'") }
            var name = argument
            var value: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                value = String(argument[argument.index(after: equals)...])
            }
            if switches.contains(name) {
                guard value == nil else { throw UsageError("option '\(name)' takes no value") }
                switchesGiven.insert(name)
                index += 1
                continue
            }
            guard allowed.contains(name) else { throw UsageError("unknown option '\(name)'") }
            if value == nil {
                index += 1
                guard index < arguments.endIndex else { throw UsageError("option '\(name)' needs a value") }
                value = arguments[index]
            }
            values[name] = value
            index += 1
        }
    }

    package subscript(name: String) -> String? { values[name] }

    /// Whether the switch `name` was given.
    package func has(_ name: String) -> Bool { switchesGiven.contains(name) }
}
