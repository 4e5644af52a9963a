import BmobWire

/// A field path from a query, validated so that it can sit inside SQL text.
///
/// The first component is a Bmob field name; later ones are field names or array indexes
/// (`projectExperiences.0.name`). Nothing else gets through, so the expression a dialect builds from it
/// (SQLite's JSON path `$.projectExperiences[0].name`) can never close its quote or carry SQL.
package struct SQLFieldPath: Sendable, Hashable {
    /// Most components in one path.
    package static let maximumComponents = 16

    /// The path as the query spelled it (`address.city`).
    package let path: String
    /// The components, validated.
    package let components: [String]

    /// Validates `path`.
    ///
    /// - Throws: ``StoreError`` ``StoreError/Code/invalidFieldName`` for an empty path, an invalid name or
    ///   too many components.
    package init(_ path: String) throws(StoreError) {
        let components = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard components.count <= Self.maximumComponents else { throw Self.invalid(path) }
        for (index, component) in components.enumerated() {
            if BmobName.isValidFieldName(component) { continue }
            if index > 0, Self.isIndex(component) { continue }
            throw Self.invalid(path)
        }
        self.path = path
        self.components = components
    }

    /// The top-level field, whose type the schema registry records.
    package var field: String { components[0] }

    /// Whether the path is one of the system columns `objectId`, `createdAt`, `updatedAt`.
    package var isSystemColumn: Bool {
        components.count == 1 && SQLFieldExpression.systemColumns.contains(components[0])
    }

    /// The field's schema when the path names a top-level field (nested values have no recorded type).
    func schema(in fields: [String: FieldSchema]) -> FieldSchema? {
        components.count == 1 ? fields[components[0]] : nil
    }

    /// Whether a component is an array index (up to nine digits) rather than a field name.
    static func isIndex(_ component: String) -> Bool {
        !component.isEmpty && component.utf8.count <= 9
            && component.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    private static func invalid(_ path: String) -> StoreError {
        var error = StoreError(.invalidFieldName, "invalid field name", fileID: nil, line: nil)
        error.detail = "field path: \(path)"
        return error
    }
}
