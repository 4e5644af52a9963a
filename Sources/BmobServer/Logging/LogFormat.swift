/// How the server's log lines look: `text` (`level label: message key=value`; access lines in logfmt) or
/// `json` (one JSON object per line), the `logFormat` setting.
package enum LogFormat: String, Sendable, CaseIterable {
    case text
    case json
}
