/// The PostgreSQL schema that holds one app's tables: `bmob_<applicationId>` in lower case, the Application ID
/// reduced to letters, digits and `_`, and cut with a hash suffix when the name would pass PostgreSQL's 63 bytes.
/// Also the key of the app's advisory lock, a 64-bit FNV-1a hash of the name.
package struct PostgresSchemaName: Sendable, Hashable {
    /// The schema name, unquoted.
    package let name: String

    /// The schema of the app `applicationId`.
    package init(applicationId: String) {
        var cleaned = "bmob_"
        for scalar in applicationId.lowercased().unicodeScalars {
            let isAllowed = (scalar >= "a" && scalar <= "z") || (scalar >= "0" && scalar <= "9") || scalar == "_"
            cleaned.unicodeScalars.append(isAllowed ? scalar : "_")
        }
        // Two IDs that differ only in case or in the characters replaced would share a name: the hash of the
        // original tells them apart whenever anything was changed.
        if cleaned != "bmob_" + applicationId || cleaned.utf8.count > 63 {
            let hash = String(Self.fnv1a(applicationId), radix: 16)
            cleaned = String(cleaned.prefix(63 - 17)) + "_" + hash
        }
        name = cleaned
    }

    /// The name as a quoted identifier (it holds no quote).
    package var quoted: String { "\"\(name)\"" }

    /// The app's advisory lock key.
    var lockKey: Int64 { Self.lockKey(of: name) }

    /// The advisory lock key for a schema named `name`.
    static func lockKey(of name: String) -> Int64 {
        Int64(bitPattern: fnv1a(name))
    }

    /// The channel that wakes other nodes after a commit.
    var channel: String { name }

    private static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return hash
    }
}
