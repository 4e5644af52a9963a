import Foundation

/// The process's logged-in user. Invariant for `@unchecked Sendable`: `value` is only touched under `lock`.
final class CurrentUser: @unchecked Sendable {
    static let shared = CurrentUser()

    private let lock = NSLock()
    private var value: BmobUser?

    var user: BmobUser? {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}
