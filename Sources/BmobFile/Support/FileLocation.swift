import BmobWire
import Foundation

/// Where a stored file is: its storage key, taken from the URL an upload returned.
enum FileLocation {
    /// The key of `url`: its path without the leading `/` (the URL's path is the key, as Bmob's clients
    /// expect), or `nil` when `url` has no path.
    static func key(ofURL url: String) -> String? {
        if let key = FileKey(urlOrPath: url) { return key.rawValue }
        guard let components = URLComponents(string: url) else { return nil }
        var path = components.path
        while path.hasPrefix("/") { path.removeFirst() }
        return path.isEmpty ? nil : path
    }
}
