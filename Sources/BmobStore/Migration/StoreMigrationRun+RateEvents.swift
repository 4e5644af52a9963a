extension StoreMigrationRun {
    /// Copies `__rate_event`, which has no key: events are grouped by `(kind, subject, at)` on both sides and only
    /// the missing number of each group is inserted, so a run after an interruption, or a second run, adds nothing
    /// twice. Each page of groups is one statement.
    func copyRateEvents(progress: (StoreMigrationProgress) -> Void) throws {
        let table = "__rate_event"
        var present: [[SQLValue]: Int] = [:]
        for (group, count) in try postgres.rows(
            #"SELECT kind, subject, at, count(*) FROM "__rate_event" GROUP BY kind, subject, at"#, { row in
                ([row.value(0), row.value(1), row.value(2)], Int(row.int64(3)))
            })
        {
            present[group] = count
        }
        let first = #"SELECT kind, subject, at, count(*) FROM "__rate_event" GROUP BY kind, subject, at "#
            + "ORDER BY kind, subject, at LIMIT ?"
        let next = #"SELECT kind, subject, at, count(*) FROM "__rate_event" WHERE (kind, subject, at) > (?, ?, ?) "#
            + "GROUP BY kind, subject, at ORDER BY kind, subject, at LIMIT ?"
        let insert = #"INSERT INTO "__rate_event" (kind, subject, at) VALUES "#
        var last: [SQLValue]?
        progress(current(table))
        while true {
            let limit = SQLValue.integer(Int64(migration.pageSize))
            let groups = try sqlite.rows(last == nil ? first : next, (last ?? []) + [limit]) { row in
                ([row.value(0), row.value(1), row.value(2)], Int(row.int64(3)))
            }
            guard let lastGroup = groups.last else { break }
            var missing: [[SQLValue]] = []
            for (group, count) in groups {
                let absent = count - (present[group] ?? 0)
                if absent > 0 { missing += Array(repeating: group, count: absent) }
            }
            try insertRateEvents(missing, statement: insert)
            last = lastGroup.0
            try handled(groups.reduce(0) { $0 + $1.1 }, table: table, progress: progress)
            if groups.count < migration.pageSize { break }
        }
    }

    /// Inserts events in statements of at most a page each; a refused statement is retried event by event and the
    /// refused events reported.
    private func insertRateEvents(_ events: [[SQLValue]], statement: String) throws {
        var start = 0
        while start < events.count {
            let chunk = Array(events[start..<min(events.count, start + migration.pageSize)])
            start += chunk.count
            let statementText = statement + Array(repeating: "(?, ?, ?)", count: chunk.count).joined(separator: ", ")
            guard try attempt(statementText, chunk.flatMap { $0 }) != nil else { continue }
            // Some event was refused: find which.
            for event in chunk {
                if let error = try attempt(statement + "(?, ?, ?)", event) {
                    report.fail(StoreMigrationFailure(table: "__rate_event", key: Self.describe(event), message: error.description))
                }
            }
        }
    }
}
