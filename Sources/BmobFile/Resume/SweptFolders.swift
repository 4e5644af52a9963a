import Foundation

/// The folders of resume records this process already swept of stale temporaries.
///
/// Invariant for `@unchecked Sendable`: `paths` is read and written only while `lock` is held. An `NSLock`
/// rather than `Synchronization.Mutex`, which needs iOS 18 and macOS 15, above the SDK's floor.
final class SweptFolders: @unchecked Sendable {
    private let lock = NSLock()
    private var paths: Set<String> = []

    /// Records `path`; returns `true` the first time it is given.
    func insert(_ path: String) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return paths.insert(path).inserted
    }
}
