import Foundation

/// Foundation values as sorted, compact text for assertions.
func describe(_ value: Any?) -> String {
    guard let value else { return "nil" }
    if let json = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed]) {
        return String(decoding: json, as: UTF8.self)
    }
    return "\(value)"
}
