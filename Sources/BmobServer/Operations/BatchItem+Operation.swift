package import BmobWire

extension BatchItem {
    /// The element as an operation: a create, update, delete or get of one object.
    package var operation: Operation {
        switch action {
        case .create(let className): .create(className: className, body: body)
        case .update(let className, let objectId): .update(className: className, objectId: objectId, body: body)
        case .delete(let className, let objectId): .delete(className: className, objectId: objectId)
        case .get(let className, let objectId): .get(className: className, objectId: objectId, include: [], keys: nil)
        }
    }
}
