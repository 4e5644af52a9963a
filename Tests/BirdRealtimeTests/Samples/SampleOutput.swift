import Foundation

/// What the samples print: this module's `print` shadows the standard library's, so the samples, unchanged,
/// record their output here (and still write it to standard output).
let sampleOutput = Recorder()

/// Records the line in ``sampleOutput`` and prints it.
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    let line = items.map { "\($0)" }.joined(separator: separator)
    sampleOutput.record(line)
    Swift.print(line, terminator: terminator)
}
