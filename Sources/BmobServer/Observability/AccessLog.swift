import BmobWire

/// Writes one line per answered request through the server's log handler: in text, logfmt
/// (`time=… request=… app=… method=GET route=/1/classes/:className status=200 bytes=517 ms=0.412 caller=key`);
/// in JSON, one object per line with the same members (`durationMs` for `ms`).
package struct AccessLog: Sendable {
    package var format: LogFormat
    package var handler: any LogHandler

    package init(format: LogFormat, handler: any LogHandler) {
        self.format = format
        self.handler = handler
    }

    package func record(_ entry: AccessLogEntry) {
        handler.writeAccessLine(line(entry))
    }

    package func line(_ entry: AccessLogEntry) -> String {
        let time = LogTimestamp.format(milliseconds: entry.time)
        let milliseconds = Self.milliseconds(entry.nanoseconds)
        switch format {
        case .text:
            var line = "time=\(time) request=\(entry.requestId)"
            line += " app=\(entry.applicationId.map(Self.logfmtValue) ?? "-")"
            line += " method=\(entry.method) route=\(Self.logfmtValue(entry.route)) status=\(entry.status)"
            line += " bytes=\(entry.bytes) ms=\(milliseconds) caller=\(entry.caller)"
            return line
        case .json:
            var object: [String: JSONValue] = [
                "time": .string(time), "level": .string("info"), "label": .string("access"),
                "request": .string(entry.requestId), "method": .string(entry.method), "route": .string(entry.route),
                "status": .int(Int64(entry.status)), "bytes": .int(Int64(entry.bytes)),
                "durationMs": .double(Double(entry.nanoseconds) / 1e6), "caller": .string(entry.caller),
            ]
            object["app"] = entry.applicationId.map { .string($0) } ?? .null
            return JSONValue.object(object).jsonString
        }
    }

    /// Milliseconds with three decimals (microsecond resolution).
    static func milliseconds(_ nanoseconds: UInt64) -> String {
        let micros = nanoseconds / 1000
        let fraction = String(micros % 1000)
        return "\(micros / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    /// A logfmt value: as is when it is a plain token, else quoted with `"` and `\` escaped.
    static func logfmtValue(_ value: String) -> String {
        let plain = !value.isEmpty && value.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x3D && $0 != 0x5C }
        if plain { return value }
        var quoted = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "\n": quoted += "\\n"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F { quoted += "\\u{\(String(scalar.value, radix: 16))}" }
                else { quoted.unicodeScalars.append(scalar) }
            }
        }
        return quoted + "\""
    }
}
