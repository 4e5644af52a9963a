package import Foundation

/// Where the SDK keeps files on the device: the query cache (per app and user) and, off Apple platforms, the
/// current user.
///
/// Apple platforms: `Library/Caches/Bmob`; elsewhere `$XDG_CACHE_HOME/bmob` or `~/.cache/bmob`. Tests and
/// apps may point it elsewhere with ``setRoot(_:)``.
package enum BmobLocalStorage {
    private static let state = LockedRoot()

    /// The folder, created on first use.
    package static var root: URL {
        state.root
    }

    /// Moves the SDK's files to `url` (created when missing).
    package static func setRoot(_ url: URL) {
        state.set(url)
    }

    /// A subfolder of ``root``, created when missing.
    package static func directory(_ name: String) throws -> URL {
        let url = root.appendingPathComponent(name, isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The default folder for this platform.
    package static var defaultRoot: URL {
        #if canImport(Darwin)
        let caches = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first
            ?? FileManager.default.temporaryDirectory
        return caches.appendingPathComponent("Bmob", isDirectory: true)
        #else
        let environment = ProcessInfo.processInfo.environment
        if let xdg = environment["XDG_CACHE_HOME"], !xdg.isEmpty {
            return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("bmob", isDirectory: true)
        }
        if let home = environment["HOME"], !home.isEmpty {
            return URL(fileURLWithPath: home, isDirectory: true)
                .appendingPathComponent(".cache/bmob", isDirectory: true)
        }
        return FileManager.default.temporaryDirectory.appendingPathComponent("bmob", isDirectory: true)
        #endif
    }

    /// The root behind a lock. Invariant for `@unchecked Sendable`: `value` is only touched under `lock`.
    private final class LockedRoot: @unchecked Sendable {
        private let lock = NSLock()
        private var value: URL?

        var root: URL {
            lock.withLock {
                if let value { return value }
                let url = BmobLocalStorage.defaultRoot
                value = url
                return url
            }
        }

        func set(_ url: URL) {
            lock.withLock { value = url }
        }
    }
}
