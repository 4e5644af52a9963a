import BmobWire
import Foundation

/// Builds a ``ServerConfiguration`` from defaults, a JSON file, the environment and flags (flags win).
package enum ConfigurationLoader {
    /// - Parameters:
    ///   - flags: flag values by flag name (`["--port": "9000"]`), already split by the CLI.
    ///   - environment: the process environment.
    /// - Throws: ``ConfigurationError`` for an unreadable file, an unknown key or a bad value.
    package static func load(flags: [String: String], environment: [String: String]) throws -> ServerConfiguration {
        var configuration = ServerConfiguration()
        if let path = flags["--config"] ?? environment["BMOB_CONFIG"] {
            try applyFile(path, to: &configuration)
        }
        for setting in ServerConfiguration.settings {
            if let value = environment[setting.environment] {
                try setting.apply(&configuration, value)
            }
        }
        for setting in ServerConfiguration.settings {
            if let value = flags[setting.flag] {
                try setting.apply(&configuration, value)
            }
        }
        return configuration
    }

    private static func applyFile(_ path: String, to configuration: inout ServerConfiguration) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigurationError("config: cannot read '\(path)'")
        }
        let document: JSONValue
        do {
            document = try JSONParser.parse(Array(data))
        } catch {
            throw ConfigurationError("config: '\(path)' is not valid JSON (\(error))")
        }
        guard case .object(let members) = document else {
            throw ConfigurationError("config: '\(path)' must hold a JSON object")
        }
        for key in members.keys.sorted() {
            guard let setting = ServerConfiguration.settings.first(where: { $0.key == key }) else {
                let known = ServerConfiguration.settings.map(\.key).joined(separator: ", ")
                throw ConfigurationError("config: unknown setting '\(key)' in '\(path)' (known: \(known))")
            }
            let text: String
            switch members[key]! {
            case .string(let value): text = value
            case .int(let value): text = String(value)
            case .double(let value): text = String(value)
            case .bool(let value): text = String(value)
            default: throw ConfigurationError("config: '\(key)' must be a string or a number")
            }
            try setting.apply(&configuration, text)
        }
    }
}
