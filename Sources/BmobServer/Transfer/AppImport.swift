import BmobIO
package import BmobStore
import BmobWire
import Foundation

/// `bmob import`: reads an export folder (``TransferLayout``, ``ImportFormat``) into one app's store.
///
/// Two phases. Everything is read and checked first — file names, sizes, JSON, each object's id, dates, ACL,
/// fields and types, relation tables — and any problem refuses the whole import before anything is written.
/// Then each class is written in transactions of 500 objects through the store (journaled as every write is):
/// an object whose id exists is refused and listed, or replaced with `overwrite`. The schema file's fields,
/// class permissions and indexes are applied around the objects.
package struct AppImport: Sendable {
    /// The app's store.
    package let store: any Store
    /// The app, for progress reports.
    package let applicationId: String
    /// How the files are shaped.
    package let format: ImportFormat
    /// Whether an object whose objectId exists is replaced rather than refused.
    package let overwrite: Bool
    /// The largest file read (``TransferLayout/maximumFileBytes`` unless a test sets less).
    package let maximumFileBytes: Int
    static let batchSize = 500

    /// An import into `store`, the store of the app `applicationId`.
    package init(
        store: any Store, applicationId: String, format: ImportFormat, overwrite: Bool,
        maximumFileBytes: Int = TransferLayout.maximumFileBytes
    ) {
        self.store = store
        self.applicationId = applicationId
        self.format = format
        self.overwrite = overwrite
        self.maximumFileBytes = maximumFileBytes
    }

    /// A class to import: its objects, the schema the files declare or imply, its permissions and indexes.
    struct ClassPlan {
        var className: String
        var fields: [String: FieldSchema] = [:]
        var permissions: JSONValue?
        var indexes: [StoredIndex] = []
        var objects: [ImportedObject] = []
    }

    /// The relation members of one relation: owner id → related ids.
    struct RelationPlan {
        var className: String
        var key: String
        var targetClass: String
        var members: [(owner: String, related: String)]
    }

    /// Reads and checks the folder, then writes it.
    ///
    /// - Throws: ``TransferError`` listing every problem found before anything was written; ``StoreError`` when
    ///   the store fails while writing (the classes written until then stay, as the report printed says).
    package func run(from folder: String, progress: (TransferProgress) -> Void) async throws -> ImportReport {
        let (classes, relations, dropped) = try read(folder)
        var report = ImportReport(droppedFields: dropped)
        for plan in classes {
            try await write(plan, report: &report, progress: progress)
        }
        for relation in relations {
            let members = relation.members
            let added = try await store.write(caller: nil) { transaction in
                var grouped: [String: [PointerValue]] = [:]
                for member in members {
                    grouped[member.owner, default: []].append(PointerValue(className: relation.targetClass, objectId: member.related))
                }
                for (owner, targets) in grouped.sorted(by: { $0.key < $1.key }) {
                    try transaction.addRelation(className: relation.className, objectId: owner, key: relation.key, targets: targets)
                }
                return members.count
            }
            report.relationMembers += added
        }
        return report
    }

    // MARK: - Reading

    func read(_ folder: String) throws(TransferError) -> ([ClassPlan], [RelationPlan], [String: Int]) {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        } catch {
            throw TransferError("cannot read the folder \(folder): \(error.localizedDescription)")
        }
        guard names.count <= TransferLayout.maximumFiles else {
            throw TransferError("\(folder) holds more than \(TransferLayout.maximumFiles) files")
        }
        let total = names.reduce(0) { sum, name in sum + (((try? Posix.regularFileSize(atPath: folder + "/" + name)) ?? nil) ?? 0) }
        guard total <= TransferLayout.maximumTotalBytes else {
            throw TransferError("\(folder) holds \(total) bytes, more than the \(TransferLayout.maximumTotalBytes) one import reads; import it in parts")
        }
        var problems: [String] = []
        var plans: [String: ClassPlan] = [:]
        var joins: [(key: String, className: String, rows: [JSONValue])] = []
        var dropped: [String: Int] = [:]
        let now = StoreFactory.systemClock()
        if names.contains(TransferLayout.schemaFile) {
            do throws(TransferError) {
                for plan in try readSchema(folder + "/" + TransferLayout.schemaFile) { plans[plan.className] = plan }
            } catch {
                problems += error.problems
            }
        }
        // Parse's Mongo documents keep GeoPoints as [longitude, latitude] and files as bare names; only the
        // schema collection says which fields those are.
        var parseTypes: [String: [String: String]] = [:]
        if format == .parse, names.contains(TransferLayout.parseSchemaFile) {
            do throws(TransferError) {
                parseTypes = try readParseSchema(folder + "/" + TransferLayout.parseSchemaFile)
            } catch {
                problems += error.problems
            }
        }
        for name in names where name != TransferLayout.schemaFile && !name.hasPrefix(".") {
            let path = folder + "/" + name
            guard let file = TransferLayout.classify(name) else {
                problems.append("\(name): not a class file (<Class>.json with a valid class name, _Join:<key>:<Class>.json or _schema.json)")
                continue
            }
            do throws(TransferError) {
                let rows = try Self.results(try readJSON(path), file: name, allowArray: true)
                switch file {
                case .schema: break
                case .parseSchema:
                    if format != .parse { problems.append("\(name): Parse's schema collection, read only with --format parse") }
                case .relation(let key, let className):
                    joins.append((key, className, rows))
                case .objects(let className):
                    var reader = ImportObjectReader(
                        className: className, format: format, now: now, parseTypes: parseTypes[className] ?? [:])
                    var plan = plans[className] ?? ClassPlan(className: className)
                    var seen = Set<String>()
                    for (index, row) in rows.enumerated() {
                        do throws(TransferError) {
                            let object = try reader.read(row, at: "\(name): object \(index + 1)")
                            guard seen.insert(object.object.objectId).inserted else {
                                throw TransferError("\(name): object \(index + 1): objectId \(object.object.objectId) appears twice")
                            }
                            plan.objects.append(object)
                        } catch {
                            problems += error.problems
                            if problems.count > 200 { throw TransferError(problems) }
                        }
                    }
                    if className == "_User" { problems += Self.duplicateIdentities(plan.objects, file: name) }
                    for (field, schema) in reader.fields {
                        if let declared = plan.fields[field], declared != schema {
                            problems.append("\(name): '\(field)' holds \(schema.displayName) values but _schema.json declares \(declared.displayName)")
                        }
                        plan.fields[field] = plan.fields[field] ?? schema
                    }
                    for (field, count) in reader.dropped { dropped["\(className).\(field)", default: 0] += count }
                    plans[className] = plan
                }
            } catch {
                problems += error.problems
            }
        }
        var relations: [RelationPlan] = []
        for join in joins {
            let name = TransferLayout.joinFile(key: join.key, className: join.className)
            let target = plans[join.className]?.fields[join.key].flatMap { $0.type == .relation ? $0.targetClass : nil }
                ?? Self.defaultRelationTarget(className: join.className, key: join.key)
            guard let target else {
                problems.append("\(name): the class the relation points to is unknown (declare '\(join.key)' as a Relation in _schema.json)")
                continue
            }
            var members: [(String, String)] = []
            for (index, row) in join.rows.enumerated() {
                guard let owner = row["owningId"]?.stringValue, let related = row["relatedId"]?.stringValue,
                    ImportObjectReader.isObjectId(owner), ImportObjectReader.isObjectId(related)
                else {
                    problems.append("\(name): row \(index + 1): expected {\"owningId\": id, \"relatedId\": id}")
                    continue
                }
                members.append((owner, related))
            }
            if plans[join.className]?.fields[join.key] == nil {
                plans[join.className, default: ClassPlan(className: join.className)].fields[join.key] =
                    FieldSchema(type: .relation, targetClass: target)
            }
            relations.append(RelationPlan(className: join.className, key: join.key, targetClass: target, members: members))
        }
        guard problems.isEmpty else { throw TransferError(problems) }
        // Users and roles first, so that pointers and relations to them land on imported rows.
        let order = ["_User", "_Role"]
        let sorted = plans.values.sorted { left, right in
            let l = order.firstIndex(of: left.className) ?? order.count
            let r = order.firstIndex(of: right.className) ?? order.count
            return (l, left.className) < (r, right.className)
        }
        return (sorted, relations, dropped)
    }

    /// Users of one file sharing a username, email or phone number, which logins could not tell apart.
    static func duplicateIdentities(_ users: [ImportedObject], file: String) -> [String] {
        var problems: [String] = []
        for (field, _) in UserService.identityFields {
            var owners: [String: String] = [:]
            for user in users {
                guard let value = user.object.fields[field]?.stringValue else { continue }
                if let other = owners[value] {
                    problems.append("\(file): users \(other) and \(user.object.objectId) share the \(field) '\(value)'")
                }
                owners[value] = owners[value] ?? user.object.objectId
            }
        }
        return problems
    }

    /// Parse's roles relate users and roles without a schema saying so.
    static func defaultRelationTarget(className: String, key: String) -> String? {
        guard className == "_Role" else { return nil }
        return key == "users" ? "_User" : key == "roles" ? "_Role" : nil
    }

    private func readSchema(_ path: String) throws(TransferError) -> [ClassPlan] {
        let rows = try Self.results(try readJSON(path), file: TransferLayout.schemaFile, allowArray: true)
        var plans: [ClassPlan] = []
        var problems: [String] = []
        for (index, row) in rows.enumerated() {
            let here = "\(TransferLayout.schemaFile): class \(index + 1)"
            guard let className = row["className"]?.stringValue, BmobName.isValidClassName(className) else {
                problems.append("\(here): 'className' must be a valid class name")
                continue
            }
            var plan = ClassPlan(className: className)
            for (field, entry) in row["fields"]?.objectValue ?? [:] {
                guard BmobName.isValidFieldName(field) else {
                    if !BmobName.systemFields.contains(field) { problems.append("\(here): '\(field)' is not a valid field name") }
                    continue
                }
                guard let typeName = entry["type"]?.stringValue, let type = BmobFieldType(rawValue: typeName) else {
                    problems.append("\(here): '\(field)' has no known type")
                    continue
                }
                let target = entry["targetClass"]?.stringValue
                if type == .pointer || type == .relation {
                    guard let target, BmobName.isValidClassName(target) else {
                        problems.append("\(here): '\(field)' needs a valid targetClass")
                        continue
                    }
                }
                plan.fields[field] = FieldSchema(type: type, targetClass: type == .pointer || type == .relation ? target : nil)
            }
            if let permissions = row["classLevelPermissions"], !permissions.isNull {
                do {
                    _ = try ClassPermissions(json: permissions)
                } catch {
                    problems.append("\(here): 'classLevelPermissions': \(error.message)")
                    continue
                }
                plan.permissions = permissions
            }
            for index in row["indexes"]?.arrayValue ?? [] {
                guard let index = StoredIndex(schemaJSON: index) else {
                    problems.append("\(here): each index must be a list of field paths or {\"fields\": [paths], \"unique\": true}")
                    continue
                }
                plan.indexes.append(index)
            }
            plans.append(plan)
        }
        guard problems.isEmpty else { throw TransferError(problems) }
        return plans
    }

    /// The file's JSON, refused above ``TransferLayout/maximumFileBytes``.
    func readJSON(_ path: String) throws(TransferError) -> JSONValue {
        let name = (path as NSString).lastPathComponent
        let size: Int?
        do {
            size = try Posix.regularFileSize(atPath: path)
        } catch {
            throw TransferError("\(name): cannot read it (\(error))")
        }
        guard let size else { throw TransferError("\(name): not a regular file") }
        guard size <= maximumFileBytes else {
            throw TransferError("\(name): \(size) bytes is more than the \(maximumFileBytes) an import reads per file")
        }
        guard let data = FileManager.default.contents(atPath: path) else { throw TransferError("\(name): cannot read it") }
        let bytes = Array(data)
        do {
            return try JSONParser.parse(bytes)
        } catch {
            // mongoexport writes one document per line unless asked for an array.
            if let lines = Self.jsonLines(bytes) { return .array(lines) }
            throw TransferError("\(name): not valid JSON (\(error))")
        }
    }

    /// The field types of Parse's `_SCHEMA` collection, by class: `{"_id": "Place", "where": "geopoint", …}`
    /// (members starting with `_` are Parse's own: metadata, class permissions).
    func readParseSchema(_ path: String) throws(TransferError) -> [String: [String: String]] {
        let file = TransferLayout.parseSchemaFile
        var types: [String: [String: String]] = [:]
        for (index, row) in try Self.results(try readJSON(path), file: file, allowArray: true).enumerated() {
            guard let members = row.objectValue, let className = members["_id"]?.stringValue, BmobName.isValidClassName(className)
            else {
                throw TransferError("\(file): document \(index + 1): expected {\"_id\": class name, field: type, …}")
            }
            var fields: [String: String] = [:]
            for (field, type) in members where !field.hasPrefix("_") {
                if let type = type.stringValue { fields[field] = type }
            }
            types[className] = fields
        }
        return types
    }

    /// The documents of a file holding one JSON object per line, or `nil` when it is not such a file.
    static func jsonLines(_ bytes: [UInt8]) -> [JSONValue]? {
        var documents: [JSONValue] = []
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
            let isBlank = line.allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") }
            if isBlank { continue }
            guard let document = try? JSONParser.parse(Array(line)), document.objectValue != nil else { return nil }
            documents.append(document)
        }
        return documents.count > 1 ? documents : nil
    }

    /// The rows of `{"results":[…]}`, or of a top-level array.
    static func results(_ document: JSONValue, file: String, allowArray: Bool) throws(TransferError) -> [JSONValue] {
        if allowArray, let rows = document.arrayValue { return rows }
        guard let rows = document["results"]?.arrayValue else {
            throw TransferError("\(file): expected {\"results\": [...]} or a JSON array")
        }
        return rows
    }

    // MARK: - Writing

    /// Which other user of the app already has this user's username, email or phone number, if one does.
    static func identityHolder(of user: StoredObject, transaction: any StoreReadTransaction) throws -> String? {
        for (field, _) in UserService.identityFields {
            guard let value = user.fields[field]?.stringValue else { continue }
            for other in try UserService.users(where: field, is: value, limit: 2, transaction: transaction)
            where other.objectId != user.objectId {
                return "the \(field) '\(value)' belongs to the existing user \(other.objectId)"
            }
        }
        return nil
    }

    private func write(_ plan: ClassPlan, report: inout ImportReport, progress: (TransferProgress) -> Void) async throws {
        let className = plan.className
        let fields = plan.fields
        try await store.write(caller: nil) { transaction in
            if !fields.isEmpty { try transaction.recordFields(className: className, fields: fields) }
        }
        var done = 0
        progress(TransferProgress(applicationId: applicationId, className: className, done: 0, total: plan.objects.count))
        for start in stride(from: 0, to: plan.objects.count, by: Self.batchSize) {
            let batch = Array(plan.objects[start..<min(start + Self.batchSize, plan.objects.count)])
            let overwrite = self.overwrite
            let (written, refused) = try await store.write(caller: nil) { transaction -> (Int, [String]) in
                var written = 0
                var refused: [String] = []
                for item in batch {
                    if className == "_User", let holder = try Self.identityHolder(of: item.object, transaction: transaction) {
                        refused.append("_User \(item.object.objectId): \(holder)")
                        continue
                    }
                    if try transaction.fetch(className: className, objectId: item.object.objectId) != nil {
                        guard overwrite else {
                            refused.append("\(className) \(item.object.objectId): exists (pass --overwrite to replace it)")
                            continue
                        }
                        try transaction.update(item.object)
                    } else {
                        try transaction.insert(item.object)
                    }
                    if let hash = item.passwordHash { try transaction.setCredential(userId: item.object.objectId, hash: hash) }
                    written += 1
                }
                return (written, refused)
            }
            report.imported[className, default: 0] += written
            report.refused += refused
            done += batch.count
            progress(TransferProgress(applicationId: applicationId, className: className, done: done, total: plan.objects.count))
        }
        let permissions = plan.permissions
        let indexes = plan.indexes
        if permissions != nil || !indexes.isEmpty {
            try await store.write(caller: nil) { transaction in
                if let permissions { try transaction.setClassPermissions(className: className, permissions: permissions) }
                for index in indexes { try transaction.createIndex(className: className, paths: index.paths, unique: index.unique) }
            }
        }
    }
}
