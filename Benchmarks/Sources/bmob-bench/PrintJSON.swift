import Foundation

/// Prints `value` as one line of JSON with sorted keys on standard output; exits with a message when it cannot
/// be encoded.
func printJSON(_ value: some Encodable) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    guard let json = try? encoder.encode(value) else { fail("cannot encode the result") }
    print(String(decoding: json, as: UTF8.self))
}
