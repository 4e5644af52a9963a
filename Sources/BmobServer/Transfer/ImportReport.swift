/// What an import wrote and what it refused, per object.
package struct ImportReport: Sendable {
    /// Objects written, per class.
    package var imported: [String: Int] = [:]
    /// Relation members added.
    package var relationMembers = 0
    /// One line per object not written (it exists and overwriting was not asked for), and per field dropped.
    package var refused: [String] = []
    /// Fields of the files the import does not carry over (Parse's internal `_…` fields), counted by name.
    package var droppedFields: [String: Int] = [:]
}
