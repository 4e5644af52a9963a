import BmobStore
import BmobWire

/// Reads the objects of one class file into storage form, checking each field as the REST door does
/// (``FieldValues/normalize(_:field:)``) and gathering the schema the values imply.
struct ImportObjectReader {
    let className: String
    let format: ImportFormat
    let now: Int64
    /// The field types Parse's `_SCHEMA` collection gives the class (`geopoint`, `file`, …), for Mongo documents.
    let parseTypes: [String: String]
    /// The field types seen so far; a field whose values disagree is a problem.
    private(set) var fields: [String: FieldSchema] = [:]
    private(set) var dropped: [String: Int] = [:]

    init(className: String, format: ImportFormat, now: Int64, parseTypes: [String: String] = [:]) {
        self.className = className
        self.format = format
        self.now = now
        self.parseTypes = parseTypes
    }

    /// Reads one object; `position` names it in problems (`Note.json: object 3`).
    mutating func read(_ value: JSONValue, at position: String) throws(TransferError) -> ImportedObject {
        guard var members = value.objectValue else { throw TransferError("\(position): expected a JSON object") }
        let mongo = format == .parse && members["_id"] != nil
        let idKey = mongo ? "_id" : "objectId"
        guard let objectId = members.removeValue(forKey: idKey)?.stringValue, Self.isObjectId(objectId) else {
            throw TransferError("\(position): '\(idKey)' must be 1 to 64 letters, digits, '-' or '_'")
        }
        let here = "\(position) (\(objectId))"
        let createdAt = try date(members.removeValue(forKey: mongo ? "_created_at" : "createdAt"), key: "createdAt", at: here) ?? now
        let updatedAt = try date(members.removeValue(forKey: mongo ? "_updated_at" : "updatedAt"), key: "updatedAt", at: here) ?? createdAt
        let acl = try readACL(&members, mongo: mongo, at: here)
        var hash: String?
        if let stored = members.removeValue(forKey: TransferLayout.hashedPassword) {
            guard className == "_User", let text = stored.stringValue, Self.isPasswordHash(text) else {
                throw TransferError("\(here): '_hashed_password' must be a bcrypt ($2a$/$2b$/$2y$) or scrypt hash on a _User")
            }
            hash = text
        }
        var stored: [String: JSONValue] = [:]
        for (key, raw) in members.sorted(by: { $0.key < $1.key }) {
            var field = key
            var value = raw
            if mongo, key.hasPrefix("_p_") {
                field = String(key.dropFirst(3))
                guard let text = raw.stringValue, let dollar = text.firstIndex(of: "$") else {
                    throw TransferError("\(here): '\(key)' must be a \"Class$objectId\" pointer")
                }
                value = PointerValue(className: String(text[..<dollar]), objectId: String(text[text.index(after: dollar)...])).json
            } else if key.hasPrefix("_") || (className == "_User" && (key == "password" || key == "sessionToken")) {
                // Parse's internal fields (tokens, auth data in Mongo form), and secrets that are never stored as fields.
                dropped[key, default: 0] += 1
                continue
            }
            if mongo, let type = parseTypes[field] { value = try Self.mongoValue(value, parseType: type, field: field, at: here) }
            if case .object(let inner) = value, let date = inner["$date"], inner.count == 1 {
                guard let milliseconds = TransferDates.milliseconds(["$date": date]) else {
                    throw TransferError("\(here): '\(field)' is not a valid date")
                }
                value = FieldValues.dateValue(milliseconds)
            }
            guard BmobName.isValidFieldName(field), !BmobName.systemFields.contains(field) else {
                throw TransferError("\(here): '\(field)' is not a valid field name")
            }
            let (normalized, schema): (JSONValue, FieldSchema?)
            do {
                (normalized, schema) = try FieldValues.normalize(value, field: field)
            } catch {
                throw TransferError("\(here): \(error.message)")
            }
            if let schema {
                if let known = fields[field], known != schema {
                    throw TransferError("\(here): '\(field)' is \(schema.displayName) here but \(known.displayName) in an earlier object")
                }
                fields[field] = schema
            }
            stored[field] = normalized
        }
        let object = StoredObject(
            className: className, objectId: objectId, createdAt: createdAt, updatedAt: updatedAt, acl: acl, fields: stored)
        return ImportedObject(object: object, passwordHash: hash)
    }

    /// A Mongo document's value in REST form where the two differ: a `geopoint` is `[longitude, latitude]`, a
    /// `file` the stored file's name.
    static func mongoValue(_ value: JSONValue, parseType: String, field: String, at position: String) throws(TransferError) -> JSONValue {
        switch (parseType, value) {
        case ("geopoint", .array(let coordinates)):
            guard coordinates.count == 2, let longitude = coordinates[0].doubleValue, let latitude = coordinates[1].doubleValue else {
                throw TransferError("\(position): '\(field)' is a geopoint but not [longitude, latitude]")
            }
            return ["__type": "GeoPoint", "latitude": .double(latitude), "longitude": .double(longitude)]
        case ("file", .string(let name)):
            return ["__type": "File", "filename": .string(name)]
        default:
            return value
        }
    }

    private func date(_ value: JSONValue?, key: String, at position: String) throws(TransferError) -> Int64? {
        guard let value, !value.isNull else { return nil }
        guard let milliseconds = TransferDates.milliseconds(value) else {
            throw TransferError("\(position): '\(key)' is not a date (ISO 8601 or YYYY-MM-DD HH:mm:ss)")
        }
        return milliseconds
    }

    /// The object's ACL from `ACL` (`{"*":{"read":true}}`), or in Mongo form from `_acl` (`r`/`w`) or
    /// `_rperm`/`_wperm` lists; `nil` for none.
    private func readACL(_ members: inout [String: JSONValue], mongo: Bool, at position: String) throws(TransferError) -> JSONValue? {
        var grants: [String: (read: Bool, write: Bool)] = [:]
        if mongo {
            let acl = members.removeValue(forKey: "_acl")
            let readers = members.removeValue(forKey: "_rperm")
            let writers = members.removeValue(forKey: "_wperm")
            if let acl, !acl.isNull {
                guard let entries = acl.objectValue else { throw TransferError("\(position): '_acl' must be an object") }
                for (grantee, entry) in entries {
                    guard let rights = entry.objectValue else { throw TransferError("\(position): '_acl.\(grantee)' must be an object") }
                    grants[grantee] = (rights["r"]?.boolValue == true, rights["w"]?.boolValue == true)
                }
            } else {
                for (list, isRead) in [(readers, true), (writers, false)] {
                    guard let list, !list.isNull else { continue }
                    guard let names = list.arrayValue?.compactMap(\.stringValue), names.count == list.arrayValue?.count else {
                        throw TransferError("\(position): '_rperm' and '_wperm' must be lists of strings")
                    }
                    for name in names {
                        var grant = grants[name] ?? (false, false)
                        if isRead { grant.read = true } else { grant.write = true }
                        grants[name] = grant
                    }
                }
            }
            if acl == nil, readers == nil, writers == nil { return nil }
        } else {
            guard let acl = members.removeValue(forKey: "ACL"), !acl.isNull else { return nil }
            guard let entries = acl.objectValue else { throw TransferError("\(position): 'ACL' must be an object") }
            for (grantee, entry) in entries {
                guard let rights = entry.objectValue,
                    rights.values.allSatisfy({ $0.boolValue != nil }), Set(rights.keys).isSubset(of: ["read", "write"])
                else {
                    throw TransferError("\(position): 'ACL.\(grantee)' must be {\"read\": bool, \"write\": bool}")
                }
                grants[grantee] = (rights["read"]?.boolValue == true, rights["write"]?.boolValue == true)
            }
        }
        var acl: [String: JSONValue] = [:]
        for (grantee, grant) in grants where grant.read || grant.write {
            guard !grantee.isEmpty, grantee.utf8.count <= 256 else { throw TransferError("\(position): an ACL names an empty grantee") }
            var rights: [String: JSONValue] = [:]
            if grant.read { rights["read"] = true }
            if grant.write { rights["write"] = true }
            acl[grantee] = .object(rights)
        }
        return .object(acl)
    }

    static func isObjectId(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 64
            && text.utf8.allSatisfy { byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
            }
    }

    static func isPasswordHash(_ text: String) -> Bool {
        if text.hasPrefix("$scrypt$") { return text.utf8.count <= 256 }
        return text.utf8.count == 60 && (text.hasPrefix("$2a$") || text.hasPrefix("$2b$") || text.hasPrefix("$2y$"))
    }
}
