package import BmobStore
package import BmobWire

extension JournalRetention {
    /// As `apps.json` and `bmob apps history` write it: `{"keepChanges": N|null, "keepDays": D|null}`.
    package var json: JSONValue {
        [
            "keepChanges": keepChanges.map { .int(Int64($0)) } ?? .null,
            "keepDays": keepDays.map { .int(Int64($0)) } ?? .null,
        ]
    }

    /// Reads ``json``; a missing document keeps everything.
    ///
    /// - Throws: ``ConfigurationError`` naming a member that is not a whole number of at least 1, or unknown.
    package init(json: JSONValue?) throws(ConfigurationError) {
        self.init()
        guard let json, !json.isNull else { return }
        guard case .object(let members) = json else { throw ConfigurationError("history: expected a JSON object") }
        for (key, value) in members {
            let number: Int?
            switch value {
            case .null: number = nil
            case .int(let int) where int >= 1 && int <= 1_000_000_000: number = Int(int)
            default:
                throw ConfigurationError("history.\(key): expected a whole number of at least 1, or null to keep all")
            }
            switch key {
            case "keepChanges": keepChanges = number
            case "keepDays": keepDays = number
            default: throw ConfigurationError("history: unknown setting '\(key)' (expected keepChanges, keepDays)")
            }
        }
    }
}
