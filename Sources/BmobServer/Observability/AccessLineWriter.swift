/// Formats access-log lines as UTF-8 bytes into a buffer sized once per line (``ByteCursor``).
enum AccessLineWriter {
    static func append(_ entry: AccessLogEntry, format: LogFormat, to bytes: inout [UInt8]) {
        // Escaping writes at most six bytes per byte of the variable texts; the rest is fixed text and numbers.
        let variable =
            entry.requestId.utf8.count + (entry.applicationId?.utf8.count ?? 4) + entry.method.utf8.count
            + entry.route.utf8.count + entry.caller.utf8.count
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 256 + 6 * variable) { buffer in
            var cursor = ByteCursor(buffer)
            switch format {
            case .text: text(entry, &cursor)
            case .json: json(entry, &cursor)
            }
            bytes.append(contentsOf: cursor.written)
        }
    }

    private static func text(_ entry: AccessLogEntry, _ cursor: inout ByteCursor) {
        cursor.put("time=")
        LogTimestamp.put(entry.time, into: &cursor)
        cursor.put(" request=")
        logfmt(entry.requestId, &cursor)
        cursor.put(" app=")
        if let app = entry.applicationId { logfmt(app, &cursor) } else { cursor.put(UInt8(ascii: "-")) }
        cursor.put(" method=")
        logfmt(entry.method, &cursor)
        cursor.put(" route=")
        logfmt(entry.route, &cursor)
        cursor.put(" status=")
        cursor.putDecimal(UInt64(max(0, entry.status)))
        cursor.put(" bytes=")
        cursor.putDecimal(UInt64(max(0, entry.bytes)))
        cursor.put(" ms=")
        milliseconds(entry.nanoseconds, &cursor)
        cursor.put(" caller=")
        logfmt(entry.caller, &cursor)
    }

    private static func json(_ entry: AccessLogEntry, _ cursor: inout ByteCursor) {
        cursor.put(#"{"time":""#)
        LogTimestamp.put(entry.time, into: &cursor)
        cursor.put(#"","level":"info","label":"access","request":"#)
        jsonString(entry.requestId, &cursor)
        cursor.put(#","app":"#)
        if let app = entry.applicationId { jsonString(app, &cursor) } else { cursor.put("null") }
        cursor.put(#","method":"#)
        jsonString(entry.method, &cursor)
        cursor.put(#","route":"#)
        jsonString(entry.route, &cursor)
        cursor.put(#","status":"#)
        cursor.putDecimal(UInt64(max(0, entry.status)))
        cursor.put(#","bytes":"#)
        cursor.putDecimal(UInt64(max(0, entry.bytes)))
        cursor.put(#","durationMs":"#)
        milliseconds(entry.nanoseconds, &cursor)
        cursor.put(#","caller":"#)
        jsonString(entry.caller, &cursor)
        cursor.put(UInt8(ascii: "}"))
    }

    /// Milliseconds with three decimals (microsecond resolution): `0.183`.
    private static func milliseconds(_ nanoseconds: UInt64, _ cursor: inout ByteCursor) {
        let micros = nanoseconds / 1000
        cursor.putDecimal(micros / 1000)
        cursor.put(UInt8(ascii: "."))
        cursor.putDecimal(micros % 1000, width: 3)
    }

    /// A logfmt value: as is when it is a plain token, else quoted with `"`, `\` and control characters escaped.
    private static func logfmt(_ value: String, _ cursor: inout ByteCursor) {
        if isPlain(value) {
            cursor.put(value)
            return
        }
        cursor.put(UInt8(ascii: "\""))
        escaped(value, &cursor)
        cursor.put(UInt8(ascii: "\""))
    }

    private static func jsonString(_ value: String, _ cursor: inout ByteCursor) {
        cursor.put(UInt8(ascii: "\""))
        if isPlain(value) { cursor.put(value) } else { escaped(value, &cursor) }
        cursor.put(UInt8(ascii: "\""))
    }

    /// Printable ASCII without space, `"`, `=` or `\`: written as is in both formats.
    private static func isPlain(_ value: String) -> Bool {
        let plain = value.utf8.withContiguousStorageIfAvailable { bytes in
            !bytes.isEmpty && !bytes.contains { $0 <= 0x20 || $0 >= 0x7F || $0 == 0x22 || $0 == 0x3D || $0 == 0x5C }
        }
        return plain ?? false
    }

    /// `value` with `"` and `\` escaped and control characters as `\u00XX` (valid in JSON and in logfmt).
    private static func escaped(_ value: String, _ cursor: inout ByteCursor) {
        let hex: StaticString = "0123456789abcdef"
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                cursor.put(UInt8(ascii: "\\"))
                cursor.put(byte)
            case 0..<0x20, 0x7F:
                cursor.put("\\u00")
                cursor.put(hex.utf8Start[Int(byte >> 4)])
                cursor.put(hex.utf8Start[Int(byte & 0xF)])
            default:
                cursor.put(byte)
            }
        }
    }
}
