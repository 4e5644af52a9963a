import BmobServer
import Foundation

extension BmobCommand {
    /// `bmob restore`: recreates a data folder from a `bmob backup` archive (``DataFolderRestore``).
    enum Restore {
        static let usage = """
            usage: bmob restore --from FILE --data DIR [--force]

            Recreates the data folder DIR from an archive 'bmob backup' wrote. DIR must be empty or missing unless
            --force is given, which replaces it (stop any server on DIR first). The archive is checked before DIR
            is touched: only the entries a backup writes are accepted (no absolute paths, '..', links or devices),
            each entry's size and SHA-256 must match the archive's closing manifest, apps.json must parse and each
            database must pass SQLite's integrity check. A refused archive leaves DIR as it was and exits 1.

            options:
              --from FILE   the archive
              --data DIR    the data folder to create
              --force       replace a non-empty DIR

            """

        static func run(_ arguments: ArraySlice<String>) throws -> Int32 {
            if arguments.contains("--help") || arguments.contains("-h") {
                print(usage, terminator: "")
                return 0
            }
            let flags = try CommandLineArguments(arguments, allowed: ["--from", "--data"], switches: ["--force"])
            guard let file = flags["--from"] else { throw UsageError("restore needs --from FILE") }
            guard let data = flags["--data"] else { throw UsageError("restore needs --data DIR") }
            let restore = DataFolderRestore(archivePath: file, dataDirectory: data, force: flags.has("--force"))
            do {
                let summary = try restore.run { printError($0) }
                print(
                    "restored \(summary.applicationIds.count) app(s), \(summary.databases.count) database(s), "
                        + "\(summary.fileCount) file(s) into \(data)")
                return 0
            } catch {
                printError("bmob: restore refused: \(error)")
                return 1
            }
        }
    }
}
