import BmobWire

extension JSONValue {
    /// The element at `index` of an array, for reading sent messages in tests.
    subscript(index: Int) -> JSONValue? {
        guard let items = arrayValue, items.indices.contains(index) else { return nil }
        return items[index]
    }
}
