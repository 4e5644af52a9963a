/// One field's schema entry: its type and, for pointers and relations, the class it points to.
package struct FieldSchema: Sendable, Hashable {
    package var type: BmobFieldType
    package var targetClass: String?

    package init(type: BmobFieldType, targetClass: String? = nil) {
        self.type = type
        self.targetClass = targetClass
    }

    /// How Bmob names the type in messages and schema responses (`Pointer<_User>` for pointers).
    package var displayName: String {
        if let targetClass { "\(type.rawValue)<\(targetClass)>" } else { type.rawValue }
    }
}
