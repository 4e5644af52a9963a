import BmobCore
package import BmobWire
public import Foundation

/// One object of a class: its fields, system fields and ACL, and the changes not yet saved.
///
/// ```swift
/// let note = BmobObject(className: "Note")
/// note["title"] = "我的笔记"
/// note["tags"] = ["工作", "重要"]
/// try await note.save()
/// ```
///
/// The rule for every model type of this SDK (`BmobObject` and subclasses, `BmobACL`, `BmobBatch`, and the
/// `BmobQuery` handle): it is `Sendable`, with its mutable state behind a lock that is never held across an
/// `await`, so reading and writing fields from a `@MainActor` view model and saving from a background task
/// are both safe.
open class BmobObject: @unchecked Sendable {
    /// The class (table) name.
    public let className: String

    package let lock = NSLock()
    /// The fields as the device sees them: the last server state with local changes applied.
    package var fields: [String: JSONValue] = [:]
    /// What the next save sends: a value or an operation per key.
    package var pending: [String: JSONValue] = [:]
    /// The first value the subscript could not store; the next save throws it.
    var pendingError: BmobError?
    var storedObjectId: String?
    var storedCreatedAt: Date?
    var storedUpdatedAt: Date?
    var storedACL: BmobACL?
    var aclChanged = false
    /// The roles the user `userId` belonged to when the object was last fetched (``fetch()``,
    /// ``BmobQuery/get(objectId:)``); ``isEditable`` reads it.
    var editorRoles: (userId: String, names: Set<String>)?

    /// A new, unsaved object of `className`.
    public init(className: String) {
        self.className = className
    }

    /// A new, unsaved object with these fields, as if each was set with the subscript.
    public convenience init(className: String, data: [String: Any]) {
        self.init(className: className)
        for (key, value) in data { self[key] = value }
    }

    /// An object as the server returned it, with no unsaved changes.
    package init(className: String, json: [String: JSONValue]) {
        self.className = className
        apply(serverFields: json)
    }

    /// The id the server gave the object; `nil` until it is saved.
    public var objectId: String? {
        get { lock.withLock { storedObjectId } }
        set { lock.withLock { storedObjectId = newValue } }
    }

    /// When the object was created on the server.
    public var createdAt: Date? { lock.withLock { storedCreatedAt } }

    /// When the object was last changed on the server.
    public var updatedAt: Date? { lock.withLock { storedUpdatedAt } }

    /// Who may read and write the object; saved with the next ``save()``.
    public var acl: BmobACL? {
        get { lock.withLock { storedACL } }
        set {
            lock.withLock {
                storedACL = newValue
                aclChanged = true
            }
        }
    }

    /// A field's value: `String`, `Int`, `Double`, `Bool`, `Date`, `[Any]`, `[String: Any]`, `BmobPointer`,
    /// `BmobGeoPoint`, `BmobRelation`, or `nil`. Setting stores any of those (and `BmobACL`, `Data`, other
    /// integer and floating-point types); setting `nil` deletes the field on the next save. `objectId`,
    /// `createdAt`, `updatedAt` and `ACL` read the system fields.
    public subscript(key: String) -> Any? {
        get {
            switch key {
            case "objectId": return objectId
            case "createdAt": return createdAt
            case "updatedAt": return updatedAt
            case "ACL": return acl
            default: return lock.withLock { fields[key] }.map(BmobValueDecoding.value)
            }
        }
        set {
            guard !["objectId", "createdAt", "updatedAt", "ACL"].contains(key) else {
                if key == "ACL", let acl = newValue as? BmobACL {
                    self.acl = acl
                } else {
                    record(.invalidParameter(reason: "\(key) is set by the server"))
                }
                return
            }
            guard newValue != nil else {
                lock.withLock {
                    fields[key] = nil
                    pending[key] = storedObjectId == nil ? nil : ["__op": "Delete"]
                }
                return
            }
            do {
                let json = try BmobValueCoding.encode(newValue)
                lock.withLock {
                    fields[key] = json
                    pending[key] = json
                }
            } catch {
                record(error)
            }
        }
    }

    /// Every field's key, system fields excluded.
    public var allKeys: [String] {
        lock.withLock { Array(fields.keys) }
    }

    /// Whether there are changes that ``save()`` would send.
    public var hasUnsavedChanges: Bool {
        lock.withLock { !pending.isEmpty || aclChanged || storedObjectId == nil }
    }

    /// The fields as a dictionary of public values, system fields included when set.
    public var dictionary: [String: Any] {
        let (fields, objectId, createdAt, updatedAt) = lock.withLock {
            () -> ([String: JSONValue], String?, Date?, Date?) in
            (self.fields, storedObjectId, storedCreatedAt, storedUpdatedAt)
        }
        var result = fields.mapValues(BmobValueDecoding.value)
        if let objectId { result["objectId"] = objectId }
        if let createdAt { result["createdAt"] = createdAt }
        if let updatedAt { result["updatedAt"] = updatedAt }
        return result
    }

    func record(_ error: BmobError) {
        lock.withLock {
            if pendingError == nil { pendingError = error }
        }
    }

    /// Forgets every field, unsaved change and system field, then takes what the server returned: the object
    /// becomes exactly the server's version.
    package func replace(serverFields json: [String: JSONValue]) {
        lock.withLock {
            fields = [:]
            pending = [:]
            pendingError = nil
            storedCreatedAt = nil
            storedUpdatedAt = nil
            storedACL = nil
            aclChanged = false
        }
        apply(serverFields: json)
    }

    /// Replaces the state with what the server returned.
    package func apply(serverFields json: [String: JSONValue]) {
        lock.withLock {
            for (key, value) in json {
                switch key {
                case "objectId": storedObjectId = value.stringValue
                case "createdAt": storedCreatedAt = value.stringValue.flatMap(BmobValueCoding.date(from:))
                case "updatedAt": storedUpdatedAt = value.stringValue.flatMap(BmobValueCoding.date(from:))
                case "ACL":
                    storedACL = BmobACL(json: value)
                    aclChanged = false
                case "__type", "className": continue
                default: fields[key] = value
                }
            }
        }
    }
}
