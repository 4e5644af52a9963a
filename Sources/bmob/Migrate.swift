import BmobServer
import BmobStore
import BmobWire
import Foundation

extension BmobCommand {
    /// `bmob migrate`: copies an SQLite deployment into PostgreSQL, app by app (``StoreMigration``).
    enum Migrate {
        static let usage = """
            usage: bmob migrate --from DIR --to postgres://USER@HOST/DB [--app ID] [--page-size N]

            Copies every app of the SQLite data folder DIR (DIR/apps.json, DIR/apps/<id>/data.sqlite) into the
            PostgreSQL database, a schema per app, as 'bmob serve --database postgres://…' would use it: objects,
            schemas, indexes, class permissions, relations, credentials, sessions, SMS codes, email tokens, rate
            events and the journal.

            Stop the server first: the SQLite files are opened read-only and never changed, but a server still
            running on them would write rows the copy misses. Start servers on PostgreSQL only once the copy is
            complete; an app's schema that a server already wrote to is refused.

            Safe to run again: after an interruption (or a second time) only the missing rows are copied. It ends
            with each table's row count on both sides and exits 1 when any differ or rows were refused (PostgreSQL
            cannot store the character U+0000; such rows are listed).

            options:
              --from DIR       the data folder of the SQLite deployment
              --to URL         the PostgreSQL database (postgres:// URL or libpq connection string)
              --app ID         copy only this app
              --page-size N    rows read and inserted at a time (default 500)

            """

        static func run(_ arguments: ArraySlice<String>) throws -> Int32 {
            if arguments.contains("--help") || arguments.contains("-h") {
                print(usage, terminator: "")
                return 0
            }
            let flags = try CommandLineArguments(arguments, allowed: ["--from", "--to", "--app", "--page-size"])
            guard let data = flags["--from"] else { throw UsageError("migrate needs --from DIR") }
            guard let url = flags["--to"] else { throw UsageError("migrate needs --to postgres://…") }
            var pageSize = 500
            if let text = flags["--page-size"] {
                guard let value = Int(text), value > 0 else { throw UsageError("--page-size must be a positive number") }
                pageSize = value
            }
            let registry = AppRegistry(dataDirectory: data)
            guard FileManager.default.fileExists(atPath: registry.registryPath) else {
                throw UsageError("\(registry.registryPath) does not exist: --from must be the server's data folder")
            }
            let registered = try registry.load()
            var apps = registered.map(\.applicationId)
            if let only = flags["--app"] {
                guard apps.contains(only) else { throw UsageError("no app '\(only)' in \(registry.registryPath)") }
                apps = [only]
            }

            var complete = true
            // The apps themselves go into the database's app table, which every node on PostgreSQL reads.
            let table = PostgresAppTable(url: url)
            for app in registered where apps.contains(app.applicationId) {
                do {
                    _ = try table.insert(
                        applicationId: app.applicationId, document: app.json.jsonString, createdAt: app.createdAt)
                } catch {
                    printError("bmob: \(app.applicationId): cannot register the app in the database: \(error)")
                    complete = false
                }
            }
            for applicationId in apps {
                let path = registry.appDirectory(applicationId) + "/data.sqlite"
                guard FileManager.default.fileExists(atPath: path) else {
                    print("\(applicationId): no data.sqlite yet, nothing to copy")
                    continue
                }
                let migration = StoreMigration(
                    sqlitePath: path, postgresURL: url, applicationId: applicationId, pageSize: pageSize)
                let bar = ProgressBar()
                do {
                    let report = try migration.run { progress in
                        bar.show(
                            subject: progress.applicationId, step: progress.table, done: progress.copiedRows,
                            total: progress.totalRows, unit: "rows")
                    }
                    bar.finish()
                    printReport(report)
                    complete = complete && report.isComplete
                } catch {
                    bar.finish()
                    printError("bmob: \(applicationId): \(error)")
                    complete = false
                }
            }
            if !complete {
                printError("bmob: the copy is incomplete; fix what is listed above and run 'bmob migrate' again")
            }
            return complete ? 0 : 1
        }

        /// Prints the counts of each table, marking those that differ, and the refused rows.
        private static func printReport(_ report: StoreMigrationReport) {
            let width = max(24, (report.counts.map(\.table.count).max() ?? 0) + 2)
            func pad(_ text: String, _ length: Int, left: Bool = false) -> String {
                let padding = String(repeating: " ", count: max(0, length - text.count))
                return left ? padding + text : text + padding
            }
            print("\(report.applicationId)  (schema \(PostgresSchemaName(applicationId: report.applicationId).name))")
            print("  " + pad("table", width) + pad("sqlite", 12, left: true) + pad("postgres", 12, left: true))
            for count in report.counts {
                let mark = count.matches ? "" : "  DIFFERS"
                print(
                    "  " + pad(count.table, width) + pad(String(count.sqliteRows), 12, left: true)
                        + pad(String(count.postgresRows), 12, left: true) + mark)
            }
            if report.failureCount > 0 {
                print("  \(report.failureCount) row(s) refused by PostgreSQL:")
                for failure in report.failures.prefix(50) {
                    print("    \(failure)")
                }
                if report.failureCount > 50 { print("    … and \(report.failureCount - 50) more") }
            }
            print(report.isComplete ? "  complete" : "  INCOMPLETE")
        }
    }
}
