import BmobWire
import CSQLite
import BmobServerCodecs

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The SQL functions the query compiler emits, registered on every connection when it opens.
///
/// - `bmob_distance(lat1, lon1, lat2, lon2)`: the great-circle distance between two points given in degrees,
///   as an angle in radians (multiply by the earth's radius for a length); NULL when an argument is not a
///   number, so objects without the point never match.
/// - `bmob_regexp(pattern, options, value)`: 1 when ``BoundedRegex`` built from `pattern` and `options`
///   matches `value`, 0 otherwise. Only text matches: numbers, NULL and JSON objects or arrays (text that
///   carries SQLite's JSON subtype) give 0. The compiled pattern is kept with the statement
///   (`sqlite3_set_auxdata`), so a query compiles it once, not once per row. The query compiler validates
///   the pattern first; a pattern that still fails here makes the statement fail. Each evaluation runs with
///   the connection's ``SQLiteWorkBudget`` allowance and is charged to it; one that runs out fails the
///   statement, which then reports the budget's error (Bmob 102).
enum SQLiteFunctions {
    /// The subtype SQLite's JSON functions give to JSON text results (objects and arrays): `'J'`.
    private static let jsonSubtype: UInt32 = 74

    /// Registers the functions on a freshly opened handle; returns the SQLite result code. `budget` is the
    /// connection's, which outlives the handle.
    static func register(_ handle: OpaquePointer, budget: SQLiteWorkBudget) -> Int32 {
        let pure = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS
        var code = sqlite3_create_function_v2(
            handle, "bmob_distance", 4, pure, nil,
            { context, count, arguments in SQLiteFunctions.distance(context, count, arguments) }, nil, nil, nil)
        guard code == SQLITE_OK else { return code }
        // Unretained: the connection owns the budget and closes the handle before releasing it.
        code = sqlite3_create_function_v2(
            handle, "bmob_regexp", 3, pure | SQLITE_SUBTYPE, Unmanaged.passUnretained(budget).toOpaque(),
            { context, count, arguments in SQLiteFunctions.regexp(context, count, arguments) }, nil, nil, nil)
        return code
    }

    /// The great-circle angle between two points in degrees (haversine), in radians.
    static func distanceRadians(latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double)
        -> Double
    {
        let toRadians = Double.pi / 180
        let phi1 = latitude1 * toRadians
        let phi2 = latitude2 * toRadians
        let halfDeltaPhi = (latitude2 - latitude1) * toRadians / 2
        let halfDeltaLambda = (longitude2 - longitude1) * toRadians / 2
        let a =
            sin(halfDeltaPhi) * sin(halfDeltaPhi) + cos(phi1) * cos(phi2) * sin(halfDeltaLambda) * sin(halfDeltaLambda)
        return 2 * asin(min(1, a.squareRoot()))
    }

    private static func distance(
        _ context: OpaquePointer?,
        _ count: Int32,
        _ arguments: UnsafeMutablePointer<OpaquePointer?>?
    ) {
        guard count == 4, let arguments else {
            sqlite3_result_null(context)
            return
        }
        var values: [Double] = []
        values.reserveCapacity(4)
        for index in 0..<4 {
            let value = arguments[index]
            let type = sqlite3_value_type(value)
            guard type == SQLITE_INTEGER || type == SQLITE_FLOAT else {
                sqlite3_result_null(context)
                return
            }
            values.append(sqlite3_value_double(value))
        }
        sqlite3_result_double(
            context,
            distanceRadians(latitude1: values[0], longitude1: values[1], latitude2: values[2], longitude2: values[3]))
    }

    private static func regexp(
        _ context: OpaquePointer?,
        _ count: Int32,
        _ arguments: UnsafeMutablePointer<OpaquePointer?>?
    ) {
        guard count == 3, let arguments, let pattern = text(arguments[0]) else {
            sqlite3_result_int(context, 0)
            return
        }
        let options = text(arguments[1]) ?? ""
        let compiled: CompiledPattern
        if let pointer = sqlite3_get_auxdata(context, 0),
            case let cached = Unmanaged<CompiledPattern>.fromOpaque(pointer).takeUnretainedValue(),
            cached.pattern == pattern, cached.options == options
        {
            compiled = cached
        } else {
            compiled = CompiledPattern(pattern: pattern, options: options)
            // SQLite owns one retain and releases it when the statement drops the data (or at once on failure).
            sqlite3_set_auxdata(context, 0, Unmanaged.passRetained(compiled).toOpaque()) { pointer in
                if let pointer { Unmanaged<CompiledPattern>.fromOpaque(pointer).release() }
            }
        }
        guard let regex = compiled.regex else {
            sqlite3_result_error(context, "invalid regular expression", -1)
            return
        }
        let value = arguments[2]
        guard sqlite3_value_subtype(value) != jsonSubtype, let subject = text(value) else {
            sqlite3_result_int(context, 0)
            return
        }
        guard let pointer = sqlite3_user_data(context) else {
            sqlite3_result_int(context, regex.matches(subject) ? 1 : 0)
            return
        }
        let budget = Unmanaged<SQLiteWorkBudget>.fromOpaque(pointer).takeUnretainedValue()
        let allowance = budget.regexStepAllowance
        let evaluation = regex.evaluate(subject, stepLimit: allowance)
        guard budget.charge(evaluation, allowance: allowance), let matched = evaluation.matched else {
            sqlite3_result_error(context, SQLiteWorkBudget.regexFailureMessage, -1)
            return
        }
        sqlite3_result_int(context, matched ? 1 : 0)
    }

    /// The argument's text, `nil` unless it is TEXT.
    private static func text(_ value: OpaquePointer?) -> String? {
        guard sqlite3_value_type(value) == SQLITE_TEXT, let bytes = sqlite3_value_text(value) else { return nil }
        let count = Int(sqlite3_value_bytes(value))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// A pattern compiled once per statement; `regex` is `nil` when the pattern is invalid.
    private final class CompiledPattern {
        let pattern: String
        let options: String
        let regex: BoundedRegex?

        init(pattern: String, options: String) {
            self.pattern = pattern
            self.options = options
            regex = try? BoundedRegex(pattern: pattern, options: options)
        }
    }
}
