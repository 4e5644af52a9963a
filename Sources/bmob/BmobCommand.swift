import BmobServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `bmob`: the server's command line. Subcommands are nested types; their work lives in BmobServer.
enum BmobCommand {
    static let usage = """
        usage: bmob <command> [options]

        commands:
          serve        run the server (see 'bmob serve --help')
          apps create  create an app and print it as JSON
          apps list    print every app as a JSON array
          migrate      copy an SQLite data folder into PostgreSQL (see 'bmob migrate --help')
          backup       write a running server's data folder into one archive (see 'bmob backup --help')
          restore      recreate a data folder from a backup archive (see 'bmob restore --help')
          export       write an app's data as JSON files (see 'bmob export --help')
          import       read exported JSON (bmob, Parse, Bmob console) into an app (see 'bmob import --help')
          help         show this text

        """

    static func main(_ arguments: [String]) async -> Int32 {
        let status: Int32
        do {
            status = try await run(arguments)
        } catch let error as UsageError {
            printError("bmob: \(error.message)")
            printError("run 'bmob help' for usage")
            status = 2
        } catch {
            printError("bmob: \(error)")
            status = 1
        }
        return status
    }

    private static func run(_ arguments: [String]) async throws -> Int32 {
        switch arguments.first {
        case "serve":
            return try await ServeCommand.run(arguments.dropFirst())
        case "apps":
            return try Apps.run(arguments.dropFirst())
        case "migrate":
            return try Migrate.run(arguments.dropFirst())
        case "backup":
            return try Backup.run(arguments.dropFirst())
        case "restore":
            return try Restore.run(arguments.dropFirst())
        case "export":
            return try await Export.run(arguments.dropFirst())
        case "import":
            return try await Import.run(arguments.dropFirst())
        case "help", "--help", "-h", nil:
            print(usage, terminator: "")
            return arguments.isEmpty ? 2 : 0
        default:
            throw UsageError("unknown command '\(arguments[0])'")
        }
    }

    static func printError(_ text: String) {
        BlockingMain.printError(text)
    }
}
