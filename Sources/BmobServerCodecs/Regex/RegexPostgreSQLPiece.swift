import BmobWire

/// A translated fragment of a PostgreSQL ARE and how it may be combined with its neighbours.
struct RegexPostgreSQLPiece: Sendable, Equatable {
    /// What a fragment is, for deciding where it needs a `(?:…)` group.
    enum Kind: Sendable, Equatable {
        /// One quantifiable item: a literal, a bracket expression, `.` or a group.
        case atom
        /// A zero-width constraint (`^`, `$`, lookaround, or a group of them): PostgreSQL refuses a quantifier
        /// directly after one, so it is grouped before being repeated.
        case constraint
        /// Items one after another (or a quantified item, or nothing): grouped before being repeated.
        case sequence
        /// Branches separated by `|`: grouped inside a sequence and before being repeated.
        case alternation
    }

    /// The ARE text.
    var text: String
    /// Its kind.
    var kind: Kind

    /// The fragment as something a quantifier may follow.
    var quantifiable: String {
        kind == .atom ? text : "(?:" + text + ")"
    }

    /// The fragment as one item of a sequence.
    var concatenable: String {
        kind == .alternation ? "(?:" + text + ")" : text
    }
}
