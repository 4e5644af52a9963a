package import BmobStore

/// An object read from an import file, checked and in storage form, with a user's password hash.
package struct ImportedObject: Sendable {
    /// The object as the store keeps it.
    package var object: StoredObject
    /// The stored password hash of a `_User` (scrypt or bcrypt), written as its credential.
    package var passwordHash: String?
}
