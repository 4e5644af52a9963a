package import BmobWire

/// An app's security policy: who may create classes, fields and roles, which `_User` fields stay private, and
/// how large its data may grow. Kept in `apps.json` under the app's `"security"` object; a member that is
/// missing there takes its default, so older files keep working and pick up safe defaults.
///
/// ```json
/// "security": {"allowClientClassCreation": false, "protectedUserFields": ["email", "mobilePhoneNumber", "authData"],
///              "maxFieldsPerClass": 200}
/// ```
///
/// The master key is never limited by the switches (it still is by the size limits, which protect the server).
package struct AppSecurity: Sendable, Equatable {
    /// Whether callers without the master key may create classes and add fields to existing ones by writing
    /// objects (Parse's `allowClientClassCreation`). On by default, since Bmob's clients create classes by
    /// saving their first object; turn it off once the schema is settled.
    package var allowClientClassCreation = true
    /// Whether callers without the master key may create roles. Off by default, as in Bmob's console where
    /// roles are made by the developer: otherwise anyone could create `admin` beside `Admin` and add users.
    package var allowClientRoleCreation = false
    /// `_User` fields returned only to the user itself and to the master key, and not queryable by others
    /// (Parse's protected fields). `authData` secrets are never stored at all; this hides even the linked ids.
    package var protectedUserFields: Set<String> = AppSecurity.defaultProtectedUserFields
    /// Fields a class may have at most.
    package var maxFieldsPerClass = 1000
    /// Classes an app may have at most.
    package var maxClasses = 1000
    /// The largest object, in bytes of its stored JSON fields.
    package var maxObjectBytes = 1 << 20
    /// Whether a password-reset or email-verification request for an address no user has is answered as one
    /// for a known address (`{"msg":"ok"}`, mailing nothing; Parse's `resetPasswordSuccessOnInvalidEmail`). On
    /// by default, so that these routes cannot be used to find out who has an account; off answers Bmob's 205.
    package var successOnUnknownEmail = true

    /// `email`, `mobilePhoneNumber` and `authData`.
    package static let defaultProtectedUserFields: Set<String> = ["email", "mobilePhoneNumber", "authData"]

    /// The defaults.
    package init() {}

    /// The policy as stored in `apps.json`.
    package var json: JSONValue {
        [
            "allowClientClassCreation": .bool(allowClientClassCreation),
            "allowClientRoleCreation": .bool(allowClientRoleCreation),
            "protectedUserFields": .array(protectedUserFields.sorted().map(JSONValue.string)),
            "maxFieldsPerClass": .int(Int64(maxFieldsPerClass)),
            "maxClasses": .int(Int64(maxClasses)),
            "maxObjectBytes": .int(Int64(maxObjectBytes)),
            "successOnUnknownEmail": .bool(successOnUnknownEmail),
        ]
    }

    /// Reads a policy written by ``json``; missing members keep their defaults.
    ///
    /// - Throws: ``ConfigurationError`` for a member of the wrong type or out of range.
    package init(json: JSONValue?) throws(ConfigurationError) {
        self.init()
        guard let json, !json.isNull else { return }
        guard case .object(let members) = json else {
            throw ConfigurationError("apps.json: an app's 'security' must be an object")
        }
        func flag(_ key: String) throws(ConfigurationError) -> Bool? {
            guard let value = members[key] else { return nil }
            guard case .bool(let flag) = value else { throw ConfigurationError("apps.json: security.\(key) must be true or false") }
            return flag
        }
        func limit(_ key: String, _ range: ClosedRange<Int64>) throws(ConfigurationError) -> Int? {
            guard let value = members[key] else { return nil }
            guard let number = value.int64Value, range.contains(number) else {
                throw ConfigurationError(
                    "apps.json: security.\(key) must be a whole number in \(range.lowerBound)...\(range.upperBound)")
            }
            return Int(number)
        }
        if let value = try flag("allowClientClassCreation") { allowClientClassCreation = value }
        if let value = try flag("allowClientRoleCreation") { allowClientRoleCreation = value }
        if let value = try flag("successOnUnknownEmail") { successOnUnknownEmail = value }
        if let value = members["protectedUserFields"] {
            guard let list = value.arrayValue, list.allSatisfy({ $0.stringValue != nil }) else {
                throw ConfigurationError("apps.json: security.protectedUserFields must be an array of field names")
            }
            protectedUserFields = Set(list.compactMap(\.stringValue))
        }
        if let value = try limit("maxFieldsPerClass", 1...100_000) { maxFieldsPerClass = value }
        if let value = try limit("maxClasses", 1...100_000) { maxClasses = value }
        if let value = try limit("maxObjectBytes", 1024...(1 << 30)) { maxObjectBytes = value }
    }
}
