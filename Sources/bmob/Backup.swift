import BmobServer
import Foundation

extension BmobCommand {
    /// `bmob backup`: one archive of an SQLite data folder, taken while the server runs (``DataFolderBackup``).
    enum Backup {
        static let usage = """
            usage: bmob backup --data DIR --to FILE

            Writes the data folder DIR into one archive FILE (a POSIX ustar file; 'tar tf FILE' lists it): apps.json,
            secrets.json, each app's database (DIR/apps/<id>/data.sqlite) and the stored files (DIR/files, without
            uploads in progress). The server may keep serving and writing: each database is copied with SQLite's
            online backup, as of one moment between the backup's start and its end; every write acknowledged
            before the backup started is in it. The archive ends with each entry's size and SHA-256, which
            'bmob restore' checks. FILE must not exist; it appears only once complete.

            PostgreSQL deployments (--database postgres://…) keep the apps' data in the database: back it up with
            PostgreSQL's own tools, e.g. pg_dump --format=custom --file=bmob.dump "$URL" and restore with
            pg_restore --clean --if-exists --dbname="$URL" bmob.dump (every app is a schema bmob_<id>; the apps and
            shared secrets are in the schema bmob-registry); back up DIR/files (or the S3 bucket) beside it.

            options:
              --data DIR    the server's data folder
              --to FILE     the archive to write

            """

        static func run(_ arguments: ArraySlice<String>) throws -> Int32 {
            if arguments.contains("--help") || arguments.contains("-h") {
                print(usage, terminator: "")
                return 0
            }
            let flags = try CommandLineArguments(arguments, allowed: ["--data", "--to", "--database"])
            if flags["--database"] != nil {
                throw UsageError(
                    "bmob backup copies SQLite data folders; back up a PostgreSQL deployment with pg_dump (see 'bmob backup --help')")
            }
            guard let data = flags["--data"] else { throw UsageError("backup needs --data DIR") }
            guard let file = flags["--to"] else { throw UsageError("backup needs --to FILE") }
            do {
                let summary = try DataFolderBackup(dataDirectory: data).write(to: file) { printError($0) }
                print(
                    "backed up \(summary.applicationIds.count) app(s), \(summary.databases.count) database(s), "
                        + "\(summary.fileCount) file(s) to \(file) (\(summary.archiveBytes) bytes)")
                return 0
            } catch {
                printError("bmob: backup failed: \(error)")
                return 1
            }
        }
    }
}
