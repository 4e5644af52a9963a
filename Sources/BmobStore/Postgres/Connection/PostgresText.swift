/// Text forms of values as PostgreSQL's input functions read them.
enum PostgresText {
    /// A double as `float8` and `numeric` input read it: the shortest text that reads back as the same double.
    static func real(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
        return value.description
    }

    /// A string as a double-quoted SQL identifier; the store only quotes names it validated, so doubling quotes is
    /// a second line of defence.
    static func identifier(_ name: String) -> String {
        var quoted = "\""
        for character in name {
            quoted.append(character)
            if character == "\"" { quoted.append("\"") }
        }
        return quoted + "\""
    }
}
