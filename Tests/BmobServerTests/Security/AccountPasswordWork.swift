import Synchronization

/// Counts scrypt runs through ``BmobServer/UserService/passwordWorkObserver``, so that tests can show that a
/// refused request hashed nothing without measuring time.
final class AccountPasswordWork: Sendable {
    private let count = Atomic<Int>(0)

    /// The observer to give the user service.
    var observer: @Sendable () -> Void {
        { [self] in _ = self.count.add(1, ordering: .relaxed) }
    }

    /// Hashes and verifications so far.
    var runs: Int { count.load(ordering: .relaxed) }
}
