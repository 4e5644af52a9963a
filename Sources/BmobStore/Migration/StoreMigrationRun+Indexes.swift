import BmobWire

extension StoreMigrationRun {
    /// Copies `__index` in the order the indexes were declared (PostgreSQL numbers them as they arrive) and makes
    /// each one's PostgreSQL index from the copied schema, as ``SQLWriteTransaction/createIndex(className:paths:unique:)``
    /// would: the index and its row in one transaction, the index only if it is missing. An index PostgreSQL
    /// cannot build (objects that share a value under PostgreSQL's comparison, say) is reported with its row left
    /// out.
    func copyIndexes(progress: (StoreMigrationProgress) -> Void) throws {
        let table = "__index"
        progress(current(table))
        let rows = try sqlite.rows(
            #"SELECT name, className, paths, isUnique FROM "__index" ORDER BY rowid"#
        ) { row in [row.value(0), row.value(1), row.value(2), row.value(3)] }
        let catalog = try SchemaRows.loadCatalog(postgres)
        for row in rows {
            do {
                try copyIndex(row, catalog: catalog)
            } catch let error as StoreError where !Self.isFatal(error) {
                if postgres.isInTransaction { try? postgres.execute("ROLLBACK") }
                report.fail(StoreMigrationFailure(table: table, key: Self.describe([row[0]]), message: error.description))
            }
            try handled(1, table: table, progress: progress)
        }
    }

    private func copyIndex(_ row: [SQLValue], catalog: SchemaCatalog) throws {
        guard case .text(let recorded) = row[0], case .text(let className) = row[1], case .text(let pathsJSON) = row[2],
            case .integer(let isUnique) = row[3]
        else { throw StoreError(.corrupt, "the index registry holds an invalid row") }
        guard let list = (try? JSONParser.parse(pathsJSON))?.arrayValue, !list.isEmpty else {
            throw StoreError(.corrupt, "the index registry holds invalid paths")
        }
        let paths = try list.map { value throws(StoreError) in
            guard let path = value.stringValue else { throw StoreError(.corrupt, "the index registry holds invalid paths") }
            return try SQLFieldPath(path)
        }
        let name = IndexRows.name(className: className, paths: paths)
        guard name.name == recorded else {
            throw StoreError(.corrupt, "the index's name does not match its class and paths")
        }
        let classTable = try SQLTableName(className: className)
        try postgres.execute("BEGIN")
        try postgres.createClassTable(classTable)
        let exists = try postgres.firstRow("SELECT to_regclass(?) IS NOT NULL", [.text(name.quoted)]) { $0.bool(0) } ?? false
        if !exists {
            try postgres.execute(
                IndexRows.createStatement(
                    dialect: PostgresConnection.dialect, name: name, table: classTable, paths: paths,
                    schema: catalog.fields(of: className), unique: isUnique != 0))
            for statement in IndexRows.statisticsStatements(
                dialect: PostgresConnection.dialect, name: name, table: classTable, paths: paths,
                schema: catalog.fields(of: className))
            {
                try postgres.execute(statement)
            }
        }
        try postgres.run(
            #"INSERT INTO "__index" (name, className, paths, isUnique) VALUES (?, ?, ?, ?) ON CONFLICT (name) DO NOTHING"#,
            row)
        try postgres.execute("COMMIT")
    }
}
