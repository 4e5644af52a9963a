/// The exports `bmob import` reads (`--format`).
package enum ImportFormat: String, Sendable, CaseIterable {
    /// `bmob export`'s folder (``TransferLayout``).
    case bmob
    /// A Parse Server export: per class either the REST shape (`{"results":[{"objectId",…}]}`) or MongoDB
    /// documents (`_id`, `_created_at`, `_updated_at`, `_p_<field>` pointers, `_acl`/`_rperm`/`_wperm`,
    /// `_hashed_password`), with `_Join:<key>:<Class>.json` relation tables.
    case parse
    /// Bmob's web console export of a class: a JSON array (or `{"results":[…]}`) of objects whose dates are
    /// `YYYY-MM-DD HH:mm:ss` in UTC.
    case bmobConsole = "bmob-console"
}
