package import BmobWire

extension StoreCoreReadTransaction {
    /// The objects of `className` whose relation `key` holds at least one of `targets`, each once, in no set order;
    /// any number of targets (a role's ancestors are found this way, a level of children at a time).
    ///
    /// The targets are asked for in chunks, so that no statement comes near an engine's limit on bound values.
    /// Sees every object, whatever its ACL.
    ///
    /// - Throws: ``StoreError``, as ``find(_:)``.
    package func relationOwners(className: String, key: String, holdingAnyOf targets: [PointerValue]) throws
        -> [StoredObject]
    {
        var owners: [StoredObject] = []
        var seen: Set<String> = []
        var start = 0
        while start < targets.count {
            let chunk = targets[start..<min(start + relationOwnersChunkSize, targets.count)]
            start += relationOwnersChunkSize
            let found = try find(
                FindQuery(
                    className: className, condition: .field(path: key, constraints: [.containedIn(chunk.map(\.json))]),
                    limit: .max))
            for owner in found where seen.insert(owner.objectId).inserted {
                owners.append(owner)
            }
        }
        return owners
    }
}

/// Targets one ``StoreCoreReadTransaction/relationOwners(className:key:holdingAnyOf:)`` statement names at most:
/// far below every engine's limit on bound values (SQLite's is 32,766).
private let relationOwnersChunkSize = 500
