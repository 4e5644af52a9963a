package import BmobWire

/// The one error type of `BmobStore`.
///
/// Match on ``code``; codes are static members over a private enum, so new ones can be added without
/// breaking callers. Each engine maps its failures to these codes (a taken objectId, a unique index, a busy or
/// full database), so callers never read an engine's result codes. ``description`` is safe to log: it never
/// contains SQL parameters, object data or database text. The database's own message and the SQL statement are
/// only in ``debugDescription``.
package struct StoreError: Error, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// What went wrong, in terms a service can act on.
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case notFound, objectIdTaken, duplicate, typeMismatch, invalidClassName, invalidFieldName, invalidQuery,
                tooLarge, unsupportedValue, busy, unavailable, closed, corrupt, incompatible, io, full, readOnly,
                deferredWriteFailed, readNeedsSnapshot, `internal`
        }

        private let base: Base

        private init(_ base: Base) {
            self.base = base
        }

        package var description: String { base.rawValue }

        /// No object with that class and objectId, or no such class.
        package static let notFound = Code(.notFound)
        /// An insert's objectId is already taken in its class: the caller may retry with a fresh id.
        package static let objectIdTaken = Code(.objectIdTaken)
        /// A unique index already holds the value (or, for an index being declared unique, objects already
        /// share values).
        package static let duplicate = Code(.duplicate)
        /// A field's type differs from the type the schema registry recorded.
        package static let typeMismatch = Code(.typeMismatch)
        /// A class name that breaks Bmob's name rules; rejected before it reaches SQL.
        package static let invalidClassName = Code(.invalidClassName)
        /// A field name that breaks Bmob's name rules; rejected before it reaches SQL.
        package static let invalidFieldName = Code(.invalidFieldName)
        /// A query the store cannot run: a malformed `$regex`, an invalid date, an operator that does not fit
        /// the field, an unknown aggregate name; ``StoreError/message`` says which, safe to show a client.
        package static let invalidQuery = Code(.invalidQuery)
        /// An object larger than the store's largest document; ``StoreError/message`` is safe to show a client.
        package static let tooLarge = Code(.tooLarge)
        /// A value the engine cannot store (PostgreSQL text cannot hold U+0000); ``StoreError/message`` is safe to
        /// show a client.
        package static let unsupportedValue = Code(.unsupportedValue)
        /// The database stayed locked by another process past the busy timeout, or concurrent transactions
        /// conflicted: trying again may succeed.
        package static let busy = Code(.busy)
        /// The database server cannot be reached (restarting, failing over, out of connections); the store
        /// reconnects by itself.
        package static let unavailable = Code(.unavailable)
        /// The store was closed.
        package static let closed = Code(.closed)
        /// The database file or its stored data is damaged.
        package static let corrupt = Code(.corrupt)
        /// The database was written by a newer version (it has migrations this build does not know).
        package static let incompatible = Code(.incompatible)
        /// The operating system failed a read or write.
        package static let io = Code(.io)
        /// The disk is full.
        package static let full = Code(.full)
        /// The database file cannot be written.
        package static let readOnly = Code(.readOnly)
        /// A write the writer sent without waiting for its answer failed, and the transaction awaits a rollback;
        /// the writer runs its group again, each job in a savepoint, where the failure surfaces as itself. Never
        /// leaves the store.
        package static let deferredWriteFailed = Code(.deferredWriteFailed)
        /// A PostgreSQL read that began without a transaction, for one statement, asked for a second; the reader
        /// runs it again in a transaction. Never leaves the store.
        package static let readNeedsSnapshot = Code(.readNeedsSnapshot)
        /// A fault inside the store or the database engine; carries a source location.
        package static let `internal` = Code(.internal)
    }

    /// What went wrong.
    package var code: Code
    /// A short message safe to log and, for ``Code/typeMismatch``, to show to a client verbatim.
    package var message: String
    /// The error this one wraps, if any.
    package var underlying: (any Error & Sendable)?
    /// Where an internal fault was detected (`#fileID`), for ``Code/internal`` and database failures.
    package var fileID: String?
    /// The line that goes with ``fileID``.
    package var line: Int?
    /// The engine's own result code behind this error; internal, so the store's interface stays engine-free.
    var engineCode: (any StoreEngineCode)?
    /// Database text (SQLite's message, the statement): may quote data, so only ``debugDescription`` shows it.
    var detail: String?

    /// Makes an error; `fileID` and `line` default to the caller's location.
    package init(
        _ code: Code,
        _ message: String,
        underlying: (any Error & Sendable)? = nil,
        fileID: String? = #fileID,
        line: Int? = #line
    ) {
        self.code = code
        self.message = message
        self.underlying = underlying
        self.fileID = fileID
        self.line = line
    }

    /// Whether an insert failed because its objectId is taken (``Code/objectIdTaken``) rather than because of a
    /// unique index: the caller may retry with a fresh id.
    package var isObjectIdCollision: Bool {
        code == .objectIdTaken
    }

    /// The Bmob protocol code a front door answers with: 101, 102, 103, 105, 111, 301, 401, 503, or 500 for the
    /// rest.
    package var bmobCode: BmobErrorCode {
        switch code {
        case .notFound: .objectNotFound
        case .objectIdTaken, .duplicate: .duplicateValue
        case .typeMismatch: .incorrectType
        case .invalidClassName: .invalidClassName
        case .invalidFieldName: .invalidFieldName
        case .invalidQuery: .invalidQuery
        case .tooLarge, .unsupportedValue: .validationFailed
        case .busy, .unavailable, .closed: .unavailable
        default: .internalError
        }
    }

    package var description: String {
        var text = "StoreError.\(code): \(message)"
        if let engineCode { text += " [\(engineCode)]" }
        return text
    }

    package var debugDescription: String {
        var text = description
        if let detail { text += " — \(detail)" }
        if let fileID, let line { text += " at \(fileID):\(line)" }
        if let underlying { text += "; underlying: \(String(reflecting: underlying))" }
        return text
    }
}

extension StoreError {
    /// The store was closed before or while the operation was queued.
    static func closed(fileID: String = #fileID, line: Int = #line) -> StoreError {
        StoreError(.closed, "the store is closed", fileID: fileID, line: line)
    }

    /// An object whose fields' JSON is larger than `limit` bytes (Bmob code 301).
    static func documentTooLarge(limit: Int) -> StoreError {
        StoreError(
            .tooLarge, "the object is larger than \(limit) bytes (the app's maxObjectBytes); store large content as a file",
            fileID: nil, line: nil)
    }

    /// A query the store cannot run (Bmob code 102); `message` is safe to show a client.
    static func invalidQuery(_ message: String, underlying: (any Error & Sendable)? = nil) -> StoreError {
        StoreError(.invalidQuery, message, underlying: underlying, fileID: nil, line: nil)
    }

    /// Checks a field name against Bmob's rules before it can reach SQL.
    static func validateFieldName(_ name: String) throws(StoreError) {
        guard BmobName.isValidFieldName(name) else {
            var error = StoreError(.invalidFieldName, "invalid field name", fileID: nil, line: nil)
            error.detail = "field name: \(name)"
            throw error
        }
    }
}
