package import BmobWire
import BmobServerCodecs

/// What differs between SQL engines in the statements ``SQLQueryCompiler`` builds: how a field of the JSON
/// `data` document is read, how an array field's elements are tested, JSON types, how `$regex` and `$nearSphere`
/// are evaluated, how an ACL is searched, days of millisecond columns, booleans, and the engine's parameter
/// markers and bound-value limit.
///
/// The compiler owns the storage conventions (a class is a table of `objectId`, `createdAt`, `updatedAt`, `acl`
/// and `data`; Dates compare their `iso` text, Pointers their `objectId`) and folds the conditions; a dialect only
/// spells them. Index creation spells fields through the same dialect, so a query's expression is exactly the
/// one its index holds. Every method returns SQL text made only of validated names and the dialect's own SQL;
/// values travel as bound ``SQLValue``s, marked `?` in fragments.
///
/// ``SQLiteDialect`` reads a field as an SQL scalar (`json_extract`); ``PostgresDialect`` reads it as `jsonb`, which is
/// why binding, null tests, ordering comparisons and aggregates of field values go through the dialect too.
package protocol SQLDialect: Sendable {
    /// Most values one statement may bind.
    var maximumBoundValues: Int { get }

    /// A field of the object's `data`, or a member of that field's value (`iso` of a Date, `objectId` of a
    /// Pointer); NULL when missing.
    func field(_ path: SQLFieldPath, member: String?) -> String

    /// The JSON type of a field: NULL when the field is missing, the engine's name for JSON null when it holds
    /// null (so `IS NULL` tests presence). Aggregates read it back through the engine.
    func fieldType(_ path: SQLFieldPath) -> String

    /// A condition that some element of the array field `path` satisfies `condition` (any element when `nil`).
    /// Inside `condition`, ``elementValue`` and ``elementMember(_:)`` name the element.
    func someElement(of path: SQLFieldPath, where condition: SQLFragment?) -> SQLFragment

    /// The element being tested inside ``someElement(of:where:)``.
    var elementValue: String { get }

    /// A member of the element being tested inside ``someElement(of:where:)``.
    func elementMember(_ name: String) -> String

    /// A condition, inside ``someElement(of:where:)``, that the element is a string (JSON text of nested objects
    /// is no string).
    var elementIsString: String { get }

    /// A condition that the row has no ACL (`acl IS NULL`) or that its `acl` column grants `"read": true` to one
    /// of `readers` (sorted, not empty).
    func aclAllowsRead(by readers: [String]) -> SQLFragment

    /// 1 when ``BoundedRegex`` built from `pattern` and `options` matches the string `subject`, 0 for anything
    /// else; held to the store's per-evaluation step limit.
    func regexMatch(pattern: String, options: String, subject: String) -> SQLFragment

    /// The great-circle angle in radians between `point` and the degrees `latitude`, `longitude`; NULL when
    /// either is not a number.
    func distance(from point: GeoPointValue, latitude: String, longitude: String) -> SQLFragment

    /// The UTC day (`YYYY-MM-DD` text) of a column of milliseconds since 1970.
    func day(ofMilliseconds column: String) -> String

    /// The bound value a query's number, string or boolean compares as against ``field(_:member:)`` (no member)
    /// and ``elementValue``, matching how they read a stored value.
    func value(_ scalar: JSONValue) -> SQLValue

    /// A condition that a field or element value (``field(_:member:)``, ``elementValue``) is missing or JSON null.
    func isNull(_ value: String) -> String

    /// A condition that a field or element value holds something other than JSON null.
    func isNotNull(_ value: String) -> String

    /// The operator for "not equal, NULL counting as a value" (`IS NOT`, `IS DISTINCT FROM`).
    var distinctOperator: String { get }

    /// `value <operation> scalar` for a field or element value and `<`, `<=`, `>`, `>=`.
    func compare(_ value: String, _ operation: String, _ scalar: JSONValue) -> SQLFragment

    /// An `ORDER BY` term; a missing value sorts first ascending and last descending, on every engine.
    func orderTerm(_ expression: String, descending: Bool) -> String

    /// A field value as a number for `sum`, `average`, `max` and `min`; NULL (ignored) for anything else.
    func number(_ value: String) -> String

    /// One expression of a `CREATE INDEX`, ordered so that ``orderTerm(_:descending:)`` in either direction can
    /// read the index instead of sorting.
    func indexTerm(_ expression: String) -> String

    /// Statements run after an index is created, so that the planner knows what the index's JSON value
    /// expressions (`valueExpressions`, ``field(_:member:)`` without a member) hold; `name` and `table` are quoted: a range query also tests the
    /// value's type, and without statistics on that test the planner's guess can turn an index scan into a poor
    /// plan. Empty when the engine needs none.
    func indexStatistics(name: String, table: String, valueExpressions: [String]) -> [String]

    /// Statements that drop what ``indexStatistics(name:table:valueExpressions:)`` made for the index `name`.
    func dropIndexStatistics(name: String) -> [String]

    /// One side of a `$select` or `$dontSelect` comparison (`outer IN (SELECT inner …)`), of `kind`, in a type the
    /// other side, of `otherKind`, compares with. SQLite compares both as they are; PostgreSQL reads both as
    /// `jsonb` when their kinds differ, so that both engines match a Date's `iso` with an equal string, and
    /// neither fails on `jsonb = text`.
    func keyOperand(_ expression: String, kind: SQLOperandKind, otherKind: SQLOperandKind) -> String

    /// The text the engine runs for a statement whose parameters are marked `?`.
    func statementText(_ sql: String) -> String
}
