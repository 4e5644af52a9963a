import Foundation

/// Writes the Prometheus text exposition format (version 0.0.4): `# HELP` and `# TYPE` once per family, then its
/// samples, label values escaped (`\\`, `\"`, `\n`).
package struct PrometheusTextWriter {
    package private(set) var text = ""

    package init() {}

    /// Starts a metric family.
    package mutating func family(_ name: String, type: String, help: String) {
        text += "# HELP \(name) \(Self.escapeHelp(help))\n# TYPE \(name) \(type)\n"
    }

    /// One sample of the current family.
    package mutating func sample(_ name: String, _ labels: KeyValuePairs<String, String> = [:], _ value: Double) {
        text += name
        if !labels.isEmpty {
            text += "{"
            var first = true
            for (key, label) in labels {
                if !first { text += "," }
                first = false
                text += "\(key)=\"\(Self.escapeLabel(label))\""
            }
            text += "}"
        }
        text += " \(Self.format(value))\n"
    }

    /// One sample without labels.
    package mutating func sample(_ name: String, _ value: Int) {
        sample(name, [:], Double(value))
    }

    /// One sample with an integer value.
    package mutating func sample(_ name: String, _ labels: KeyValuePairs<String, String> = [:], _ value: Int) {
        sample(name, labels, Double(value))
    }

    /// The samples of a histogram (`_bucket` per bound and `+Inf`, `_sum`, `_count`) with `labels` on each.
    package mutating func histogram(_ name: String, _ labels: [(String, String)], _ histogram: MetricHistogram) {
        let (cumulative, count, sum) = histogram.snapshot
        let prefix = labels.map { "\($0.0)=\"\(Self.escapeLabel($0.1))\"" }.joined(separator: ",")
        let separator = prefix.isEmpty ? "" : ","
        for (index, bound) in histogram.bounds.enumerated() {
            text += "\(name)_bucket{\(prefix)\(separator)le=\"\(Self.format(bound))\"} \(cumulative[index])\n"
        }
        text += "\(name)_bucket{\(prefix)\(separator)le=\"+Inf\"} \(count)\n"
        let braces = prefix.isEmpty ? "" : "{\(prefix)}"
        text += "\(name)_sum\(braces) \(Self.format(sum))\n"
        text += "\(name)_count\(braces) \(count)\n"
    }

    static func escapeLabel(_ value: String) -> String {
        guard value.utf8.contains(where: { $0 == 0x5C || $0 == 0x22 || $0 == 0x0A }) else { return value }
        var escaped = ""
        for character in value.unicodeScalars {
            switch character {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "\n": escaped += "\\n"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }

    static func escapeHelp(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
    }

    /// Integers without a fraction, others in Swift's shortest round-tripping form.
    static func format(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }
}
