import BmobCore
import BmobWire
import Foundation

/// The multipart target with the current credentials of an upload, renewed through `/8/cdn` (`resume` = the
/// current session token) shortly before they expire or when the storage refuses them. Concurrent parts
/// share one renewal.
///
/// Thread safety: `target` and `renewal` are touched only while `lock` is held, and no lock is held across an
/// `await`; that is what makes the `@unchecked Sendable` sound.
final class CredentialKeeper: @unchecked Sendable {
    /// Credentials expiring within this many seconds are renewed before use.
    static let renewalMargin: TimeInterval = 60

    private let lock = NSLock()
    private let routes: FileRoutes
    private let filename: String
    private let size: Int64
    private let observer: (@Sendable (MultipartEvent) -> Void)?
    private var target: MultipartTarget
    private var renewal: Task<MultipartTarget, any Error>?

    /// A keeper starting from `target`, renewing for the upload of `filename` of `size` bytes; `observer`
    /// hears of each renewal.
    init(
        target: MultipartTarget, routes: FileRoutes, filename: String, size: Int64,
        observer: (@Sendable (MultipartEvent) -> Void)?
    ) {
        self.target = target
        self.routes = routes
        self.filename = filename
        self.size = size
        self.observer = observer
    }

    /// The target as it stands, without renewing.
    var latest: MultipartTarget {
        lock.withLock { target }
    }

    /// The target with credentials valid for at least ``renewalMargin`` seconds.
    func current() async throws -> MultipartTarget {
        let target = latest
        guard target.credentials.expires(within: Self.renewalMargin) else { return target }
        return try await renew(replacing: target)
    }

    /// New credentials after the storage refused those of `stale` (no new request when another part already
    /// renewed them).
    func renew(replacing stale: MultipartTarget) async throws -> MultipartTarget {
        let task = lock.withLock { () -> Task<MultipartTarget, any Error> in
            if let renewal { return renewal }
            if target.credentials.sessionToken != stale.credentials.sessionToken {
                let fresh = target
                return Task { fresh }
            }
            let routes = routes, filename = filename, size = size, token = stale.uploadToken
            let key = stale.key, observer = observer
            let task = Task { () throws -> MultipartTarget in
                let grant = try await routes.grant(filename: filename, size: size, resume: token)
                guard var fresh = grant.upload, fresh.key == key else {
                    throw BmobError.serverError(
                        code: BmobErrorCode.fileUploadError.rawValue,
                        message: "the server did not renew the upload's credentials")
                }
                // Part boundaries were fixed when the upload began.
                fresh.partSize = stale.partSize
                observer?(.credentialsRenewed)
                return fresh
            }
            renewal = task
            return task
        }
        do {
            let fresh = try await task.value
            lock.withLock {
                if renewal == task { renewal = nil }
                target = fresh
            }
            return fresh
        } catch {
            lock.withLock {
                if renewal == task { renewal = nil }
            }
            throw error
        }
    }
}
