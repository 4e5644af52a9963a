import BmobIO
package import BmobStore
import BmobWire
import Foundation

/// `bmob export`: one app's data as Bmob/Parse-style JSON files in a folder (``TransferLayout``).
///
/// Each class is read page by page (1,000 objects, by objectId), each page its own snapshot: an export taken
/// while the server writes is not one moment of the app. Export a restored backup, or stop the server, for that.
package struct AppExport: Sendable {
    /// The app's store.
    package let store: any Store
    /// The app, for progress reports.
    package let applicationId: String
    static let pageSize = 1000

    /// An export of `store`, the store of the app `applicationId`.
    package init(store: any Store, applicationId: String) {
        self.store = store
        self.applicationId = applicationId
    }

    /// Writes every class, the relations and the schema into `folder` (created; it must be empty or missing).
    ///
    /// - Returns: The number of objects written per class.
    /// - Throws: ``TransferError`` for an unusable folder; ``StoreError`` from the store.
    package func write(to folder: String, progress: (TransferProgress) -> Void) async throws -> [String: Int] {
        if let existing = try? FileManager.default.contentsOfDirectory(atPath: folder), !existing.isEmpty {
            throw TransferError("\(folder) is not empty; export into an empty or new folder")
        }
        do {
            try Posix.makeDirectories(folder)
        } catch {
            throw TransferError("cannot create \(folder): \(error)")
        }
        let classNames = try await store.read { try $0.classNames() }.sorted()
        var schemas: [JSONValue] = []
        var counts: [String: Int] = [:]
        for className in classNames {
            let (fields, permissions, indexes, total) = try await store.read { transaction in
                (
                    try transaction.schema(className: className), try transaction.classPermissions(className: className),
                    try transaction.indexes(className: className), try transaction.count(className: className)
                )
            }
            var schema: [String: JSONValue] = [
                "className": .string(className),
                "fields": .object(fields.mapValues { field in
                    var entry: [String: JSONValue] = ["type": .string(field.type.rawValue)]
                    entry["targetClass"] = field.targetClass.map(JSONValue.string)
                    return .object(entry)
                }),
                "indexes": .array(indexes.map(\.schemaJSON)),
            ]
            schema["classLevelPermissions"] = permissions
            schemas.append(.object(schema))
            let relations = fields.filter { $0.value.type == .relation }.keys.sorted()
            var objects: [JSONValue] = []
            var joins: [String: [JSONValue]] = [:]
            while true {
                let skip = objects.count
                let page = try await store.read { transaction in
                    let found = try transaction.find(
                        FindQuery(className: className, order: [OrderKey(path: "objectId")], limit: Self.pageSize, skip: skip))
                    return try found.map { object in
                        let hash = className == "_User" ? try transaction.credential(userId: object.objectId) : nil
                        let members = try relations.map { key in
                            (key, try transaction.relationTargets(className: className, objectId: object.objectId, key: key))
                        }
                        return (object, hash, members)
                    }
                }
                for (object, hash, members) in page {
                    objects.append(Self.restShape(object, hash: hash))
                    for (key, targets) in members {
                        for target in targets {
                            joins[key, default: []].append(["owningId": .string(object.objectId), "relatedId": .string(target.objectId)])
                        }
                    }
                }
                progress(TransferProgress(applicationId: applicationId, className: className, done: objects.count, total: total))
                if page.count < Self.pageSize { break }
            }
            try Self.writeJSON(["results": .array(objects)], to: folder + "/" + TransferLayout.classFile(className))
            for (key, rows) in joins {
                try Self.writeJSON(["results": .array(rows)], to: folder + "/" + TransferLayout.joinFile(key: key, className: className))
            }
            counts[className] = objects.count
        }
        try Self.writeJSON(["results": .array(schemas)], to: folder + "/" + TransferLayout.schemaFile)
        return counts
    }

    /// An object as REST shows it, with dates to the millisecond and, for users, the stored password hash.
    static func restShape(_ object: StoredObject, hash: String?) -> JSONValue {
        var members = object.fields
        members["objectId"] = .string(object.objectId)
        members["createdAt"] = .string(TransferDates.iso(object.createdAt))
        members["updatedAt"] = .string(TransferDates.iso(object.updatedAt))
        members["ACL"] = object.acl
        members[TransferLayout.hashedPassword] = hash.map(JSONValue.string)
        return .object(members)
    }

    private static func writeJSON(_ value: JSONValue, to path: String) throws {
        // Owner only: users' files carry password hashes, and any class may carry private data.
        guard FileManager.default.createFile(
            atPath: path, contents: Data(value.jsonBytes + [0x0A]), attributes: [.posixPermissions: 0o600])
        else {
            throw TransferError("cannot write \(path)")
        }
    }
}
