package import BmobIO
package import Foundation

/// Where the tests' independent protocol peers live: Python scripts in `Tests/Support/python`, run with the
/// interpreter of the virtual environment `scripts/bootstrap.sh test` makes (Python's `websockets` library).
package enum PythonPeers {
    /// The package's root folder, found from this file's path (`Sources/BmobTesting/Client/…`).
    package static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `$BMOB_PYTHON_PEERS` (an interpreter, or the environment folder holding `bin/python`), else
    /// `.build/python-peers/bin/python` under the package root.
    package static var interpreter: URL {
        if let configured = ProcessInfo.processInfo.environment["BMOB_PYTHON_PEERS"], !configured.isEmpty {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: configured, isDirectory: &isDirectory), isDirectory.boolValue {
                return URL(fileURLWithPath: configured).appendingPathComponent("bin/python")
            }
            return URL(fileURLWithPath: configured)
        }
        return packageRoot.appendingPathComponent(".build/python-peers/bin/python")
    }

    /// A peer script of `Tests/Support/python`.
    package static func script(_ name: String) -> URL {
        packageRoot.appendingPathComponent("Tests/Support/python/\(name)")
    }

    /// Whether the interpreter is installed; tests fail (never skip) with a hint when it is not.
    package static var isInstalled: Bool {
        FileManager.default.isExecutableFile(atPath: interpreter.path)
    }

    /// Starts `script` with `arguments` under the peers' interpreter; its output and errors are pipes by default.
    ///
    /// - Throws: ``NotInstalled`` when the interpreter is missing, ``BmobIO/IOError`` when it cannot start.
    package static func start(
        script: String, arguments: [String], input: ChildProcess.Stream = .null, output: ChildProcess.Stream = .pipe,
        error: ChildProcess.Stream = .pipe
    ) throws -> ChildProcess {
        guard isInstalled else { throw NotInstalled(interpreter: interpreter) }
        return try ChildProcess(
            interpreter.path, [self.script(script).path] + arguments, input: input, output: output, error: error)
    }

    /// The peers' interpreter is missing.
    package struct NotInstalled: Error, CustomStringConvertible {
        package var interpreter: URL
        package var description: String {
            "no Python peer environment at \(interpreter.path); run scripts/bootstrap.sh test"
        }
    }
}
