import BmobWire
import Testing

/// Parses `text` as a `where`, failing the test on an error.
func whereCondition(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> QueryCondition? {
    do {
        return try WhereParser.parse(text: text)
    } catch {
        Issue.record("unexpected error \(error) for \(text)", sourceLocation: sourceLocation)
        return nil
    }
}

/// The error `body` throws, or `nil` (recorded as an issue) when it succeeds.
func queryError<T>(sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> T) -> QueryParseError? {
    do {
        let value = try body()
        Issue.record("expected an error, got \(value)", sourceLocation: sourceLocation)
        return nil
    } catch let error as QueryParseError {
        return error
    } catch {
        Issue.record("expected a QueryParseError, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// A field condition with one constraint.
func field(_ path: String, _ constraint: FieldConstraint) -> QueryCondition {
    .field(path: path, constraints: [constraint])
}

/// A GeoPoint value.
func geo(_ latitude: Double, _ longitude: Double) -> GeoPointValue {
    GeoPointValue(latitude: latitude, longitude: longitude)
}

/// A Pointer value.
func pointer(_ className: String, _ objectId: String) -> PointerValue {
    PointerValue(className: className, objectId: objectId)
}

/// Compact JSON text of a value (sorted keys), for readable comparisons.
func compactJSON(_ value: JSONValue) -> String {
    value.jsonString
}
