import BmobServer
import BmobStore
import Foundation

extension BmobCommand {
    /// `bmob export`: one app's data as JSON files (``AppExport``).
    enum Export {
        static let usage = """
            usage: bmob export --data DIR --app ID --to OUTDIR [--database postgres://…]

            Writes the app's data into OUTDIR (created; it must be empty) as Bmob/Parse-style JSON: <Class>.json
            per class ({"results":[…]}, objects as REST shows them, dates as ISO 8601 with milliseconds, ACLs,
            pointers, files, dates and geopoints in their __type form; users with their stored password hash in
            _hashed_password), _Join:<key>:<Class>.json per relation ({"results":[{"owningId","relatedId"}]}) and
            _schema.json (fields, indexes, class-level permissions). 'bmob import' reads it back. _File records are
            exported, the stored files' bytes are not: 'bmob backup' carries those.

            The server may keep running, but each page of 1,000 objects is read on its own: for one consistent
            moment, export a restored backup or stop the server. OUTDIR holds password hashes: keep it private.

            options:
              --data DIR        the server's data folder
              --app ID          the app to export
              --to OUTDIR       the folder to write
              --database URL    the app's data is in this PostgreSQL database

            """

        static func run(_ arguments: ArraySlice<String>) async throws -> Int32 {
            if arguments.contains("--help") || arguments.contains("-h") {
                print(usage, terminator: "")
                return 0
            }
            let flags = try CommandLineArguments(arguments, allowed: ["--data", "--app", "--to", "--database"])
            guard let data = flags["--data"] else { throw UsageError("export needs --data DIR") }
            guard let applicationId = flags["--app"] else { throw UsageError("export needs --app ID") }
            guard let folder = flags["--to"] else { throw UsageError("export needs --to OUTDIR") }
            let store = try await AppStoreOpening.open(data: data, applicationId: applicationId, database: flags["--database"])
            let bar = ProgressBar()
            do {
                let counts = try await AppExport(store: store, applicationId: applicationId).write(to: folder) { progress in
                    bar.show(subject: progress.applicationId, step: progress.className, done: progress.done, total: progress.total, unit: "objects")
                }
                bar.finish()
                await store.close()
                for (className, count) in counts.sorted(by: { $0.key < $1.key }) {
                    print("\(className)  \(count)")
                }
                print("exported \(counts.values.reduce(0, +)) object(s) in \(counts.count) class(es) to \(folder)")
                return 0
            } catch {
                bar.finish()
                await store.close()
                printError("bmob: export failed: \(error)")
                return 1
            }
        }
    }
}
