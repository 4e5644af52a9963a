public import BmobCore

/// What one request of a ``BmobBatch`` did.
public enum BmobBatchResult: Sendable {
    /// It succeeded; the server's answer (`objectId`/`createdAt`, `updatedAt`, or `msg`).
    case success([String: any Sendable])
    /// It failed with this error; the other requests still ran.
    case failure(BmobError)

    /// The error, for a failure.
    public var error: BmobError? {
        if case .failure(let error) = self { error } else { nil }
    }

    /// Whether it succeeded.
    public var isSuccess: Bool { error == nil }
}
