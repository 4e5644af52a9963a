/// A subcommand's arguments, read flag by flag; every reader exits with a message when the value is missing or
/// wrong, naming the flag.
struct CommandLineArguments {
    private var rest: ArraySlice<String>
    /// The subcommand's usage text, shown when a flag has no value.
    private let usage: String

    /// - Parameters:
    ///   - arguments: the command line after the subcommand name.
    ///   - usage: the subcommand's usage text.
    init(_ arguments: [String], usage: String) {
        rest = arguments[...]
        self.usage = usage
    }

    /// The next flag, or nil at the end.
    mutating func nextFlag() -> String? {
        rest.popFirst()
    }

    /// The value after `flag`.
    mutating func value(_ flag: String) -> String {
        guard let next = rest.popFirst() else { fail("\(flag) needs a value\n\(usage)") }
        return next
    }

    /// A finite, non-negative number after `flag`.
    mutating func number(_ flag: String) -> Double {
        guard let parsed = Double(value(flag)), parsed.isFinite, parsed >= 0 else {
            fail("\(flag) needs a non-negative number")
        }
        return parsed
    }

    /// A positive integer after `flag`.
    mutating func count(_ flag: String) -> Int {
        guard let parsed = Int(value(flag)), parsed > 0 else { fail("\(flag) needs a positive integer") }
        return parsed
    }

    /// A port number after `flag`.
    mutating func port(_ flag: String) -> UInt16 {
        guard let parsed = UInt16(value(flag)), parsed > 0 else { fail("\(flag) needs a port number") }
        return parsed
    }

    /// A process id after `flag`.
    mutating func processID(_ flag: String) -> Int32 {
        guard let pid = Int32(value(flag)), pid > 0 else { fail("\(flag) needs a process id") }
        return pid
    }

    /// Whether `text` is a non-empty run of ASCII letters, digits, `_` and, when `allowingHyphen`, `-`: safe to
    /// put unescaped in JSON, a URL path or a query.
    static func isName(_ text: String, allowingHyphen: Bool) -> Bool {
        !text.isEmpty
            && text.utf8.allSatisfy {
                $0 == 0x5F || (allowingHyphen && $0 == 0x2D) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A)
                    || ($0 >= 0x30 && $0 <= 0x39)
            }
    }
}
