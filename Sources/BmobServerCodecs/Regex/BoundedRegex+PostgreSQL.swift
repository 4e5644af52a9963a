import BmobWire

extension BoundedRegex {
    /// The pattern as a PostgreSQL advanced regular expression (ARE) for the case-sensitive `~` operator, with
    /// no embedded options: `subject ~ postgreSQLPattern` answers what ``matches(_:)`` answers for every subject
    /// a `text` value can hold (anything without U+0000).
    ///
    /// The translation works on the parsed tree, not the text (see ``RegexPostgreSQLTranslator``): options and
    /// inline flags are already resolved, case-insensitivity is expanded into explicit bracket expressions from
    /// the same case mappings the matcher uses (so U+212A KELVIN SIGN, `ſ`, the sigma forms and the Turkish `ı`
    /// and `İ` agree), and classes are code-point ranges, which PostgreSQL compares by value whatever the
    /// collation or locale. It relies on PostgreSQL's default ARE mode, the one `~` uses: `.` and negated
    /// brackets match a line feed, and `^`/`$` hold only at the ends of the subject. It must not be used with
    /// `~*` or with the `n`, `w`, `p`, `x`, `i` or `q` flags.
    ///
    /// Cost: the ARE is linear in the size of the compiled program (``instructionCount`` is at most 20,000):
    /// counted repetition is split into bounds of at most 255 that PostgreSQL expands into copies, as our
    /// compiler does, and each set is one bracket. PostgreSQL runs an ARE without back-references (none is
    /// emitted) as a lazily built DFA over its NFA, with a bounded state cache, so matching is linear in the
    /// subject times the NFA size at worst and never backtracks. A nullable item under a quantifier is repeated
    /// through its non-empty form (``RegexNode/nonEmpty``), because PostgreSQL's compiler is quadratic in a chain
    /// of nullable copies. On PostgreSQL 15 the largest programs (19,000 copies of a case-insensitive bracket)
    /// compile and match a 19,000-scalar subject in about half a second. Every assertion but a leading `^` is one
    /// positive lookahead of at most two scalars (lookbehind nested in it reads one), evaluated by a small
    /// automaton of its own; PostgreSQL resumes its lookbehind automata rather than rescanning the subject.
    /// PostgreSQL also caps the compiled NFA ("regular expression is too complex"); the assertion forms are the
    /// ones that keep repeated assertions (`(?m)(?:^.*$\n){999}`, `(?:\b\w+\b\s){1000}`) under that cap, but
    /// the caller should still map that error (SQLSTATE 2201B) to the usual invalid-pattern answer, and a
    /// `statement_timeout` bounds the query as a whole.
    package var postgreSQLPattern: String {
        RegexPostgreSQLTranslator(sets: sets).pattern(for: node)
    }
}
