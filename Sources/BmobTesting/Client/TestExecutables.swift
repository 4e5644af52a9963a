package import Foundation

/// The package's test-support executables (`bmob-crash-writer`, `bmob-upload-client`, …), which SwiftPM builds with
/// the tests and puts beside the test binary.
package enum TestExecutables {
    /// The executable `name`, looked for beside the running test binary and up to three folders above it.
    package static func url(named name: String) -> URL? {
        var starts = [URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()]
        if let executable = Bundle.main.executableURL { starts.append(executable.resolvingSymlinksInPath()) }
        if let link = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            starts.append(URL(fileURLWithPath: link))
        }
        for start in starts {
            var directory = start.deletingLastPathComponent()
            for _ in 0..<4 {
                let candidate = directory.appendingPathComponent(name)
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
                directory = directory.deletingLastPathComponent()
            }
        }
        return nil
    }
}
