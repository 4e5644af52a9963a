import BmobServer
import BmobStore
import Foundation

extension BmobCommand {
    /// `bmob import`: reads exported JSON into an app (``AppImport``).
    enum Import {
        static let usage = """
            usage: bmob import --data DIR --app ID --from INDIR [--format bmob|parse|bmob-console] [--overwrite]
                               [--database postgres://…]

            Reads the JSON files of INDIR into the app ID (create it first with 'bmob apps create'):
              bmob          what 'bmob export' writes (the default)
              parse         a Parse Server export: per class the REST shape {"results":[{"objectId",…}]} or MongoDB
                            documents (_id, _created_at, _updated_at, _p_<field> "Class$id" pointers, _acl or
                            _rperm/_wperm, _hashed_password), and _Join:<key>:<Class>.json relation tables
              bmob-console  Bmob's console export of a class: a JSON array (or {"results":[…]}) of objects with
                            dates as "YYYY-MM-DD HH:mm:ss" (UTC)
            Each file is <Class>.json (at most 512 MiB, 2 GiB in all); objectIds, dates, ACLs and password hashes are
            kept.
            Imported users log in with their old passwords; a bcrypt hash from Parse is replaced with the server's own
            scheme at the user's first login. Parse's internal fields (_email_verify_token, _auth_data_…, …) are
            dropped and counted.

            Everything is read and checked before anything is written: a malformed file, a wrong value for a field,
            a bad class or field name, an unknown file refuses the whole import (exit 1, each problem listed). Then
            objects are written in transactions of 500, journaled as any write; an objectId that already exists is
            refused and listed (exit 1) unless --overwrite replaces it, and so is a user whose username, email or phone
            number another user of the app has.

            Stop the server first, as for 'bmob migrate': a running server would not see the new classes' schema.

            options:
              --data DIR        the server's data folder
              --app ID          the app to import into
              --from INDIR      the folder of JSON files
              --format F        bmob (default), parse or bmob-console
              --overwrite       replace objects whose objectId exists
              --database URL    the app's data is in this PostgreSQL database

            """

        static func run(_ arguments: ArraySlice<String>) async throws -> Int32 {
            if arguments.contains("--help") || arguments.contains("-h") {
                print(usage, terminator: "")
                return 0
            }
            let flags = try CommandLineArguments(
                arguments, allowed: ["--data", "--app", "--from", "--format", "--database"], switches: ["--overwrite"])
            guard let data = flags["--data"] else { throw UsageError("import needs --data DIR") }
            guard let applicationId = flags["--app"] else { throw UsageError("import needs --app ID") }
            guard let folder = flags["--from"] else { throw UsageError("import needs --from INDIR") }
            let formatName = flags["--format"] ?? ImportFormat.bmob.rawValue
            guard let format = ImportFormat(rawValue: formatName) else {
                throw UsageError("--format must be one of \(ImportFormat.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            let store = try await AppStoreOpening.open(data: data, applicationId: applicationId, database: flags["--database"])
            let bar = ProgressBar()
            let job = AppImport(store: store, applicationId: applicationId, format: format, overwrite: flags.has("--overwrite"))
            let report: ImportReport
            do {
                report = try await job.run(from: folder) { progress in
                    bar.show(subject: progress.applicationId, step: progress.className, done: progress.done, total: progress.total, unit: "objects")
                }
                bar.finish()
                await store.close()
            } catch let error as TransferError {
                bar.finish()
                await store.close()
                printError("bmob: import refused, nothing was written:\n  \(error)")
                return 1
            } catch {
                bar.finish()
                await store.close()
                printError("bmob: import failed: \(error); the classes listed above were written, the rest not")
                return 1
            }
            for (className, count) in report.imported.sorted(by: { $0.key < $1.key }) {
                print("\(className)  \(count)")
            }
            print("imported \(report.imported.values.reduce(0, +)) object(s), \(report.relationMembers) relation member(s)")
            for (field, count) in report.droppedFields.sorted(by: { $0.key < $1.key }) {
                print("dropped \(field) from \(count) object(s)")
            }
            if !report.refused.isEmpty {
                printError("bmob: \(report.refused.count) object(s) refused:")
                for line in report.refused.prefix(50) { printError("  \(line)") }
                if report.refused.count > 50 { printError("  … and \(report.refused.count - 50) more") }
                return 1
            }
            return 0
        }
    }
}
