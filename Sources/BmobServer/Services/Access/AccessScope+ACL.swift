package import BmobWire

extension AccessScope {
    /// The grantees for ``FindQuery/readers``; `nil` for the master key (no filter).
    package var readers: Set<String>? {
        switch self {
        case .master: nil
        case .grantees(let names): names
        }
    }

    /// Whether an object with this ACL may be read: no ACL means public.
    package func canRead(_ acl: JSONValue?) -> Bool {
        allows("read", acl)
    }

    /// ``canRead(_:)`` for an ACL kept as the JSON text the store holds (`nil` for none): parsed only when the
    /// scope is not the master key's. Text that does not parse reads as an ACL that grants nothing.
    package func canRead(aclJSON: [UInt8]?) -> Bool {
        guard case .grantees = self, let aclJSON else { return true }
        guard let acl = try? JSONParser.parse(aclJSON) else { return false }
        return canRead(acl)
    }

    /// Whether an object with this ACL may be changed or deleted: no ACL means public.
    package func canWrite(_ acl: JSONValue?) -> Bool {
        allows("write", acl)
    }

    private func allows(_ right: String, _ acl: JSONValue?) -> Bool {
        guard case .grantees(let names) = self else { return true }
        guard let acl, !acl.isNull else { return true }
        guard let entries = acl.objectValue else { return false }
        return names.contains { entries[$0]?[right]?.boolValue == true }
    }
}
