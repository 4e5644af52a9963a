/// Errors of a benchmark run counted by kind, the first of each kind (up to ten kinds) kept in full; as result
/// fields `errors` and `error_samples` (part of a result's JSON object through ``MergedJSONObject``).
struct ErrorTally: Encodable {
    /// Errors by kind, over the whole run.
    private(set) var counts: [String: Int] = [:]
    /// The first error of each kind in full (up to ten kinds).
    private(set) var samples: [String] = []

    /// Counts an error under `kind`; the first of each kind (up to ten kinds) is kept in full.
    mutating func record(kind: String, detail: String) {
        let seen = counts[kind, default: 0]
        counts[kind] = seen + 1
        if seen == 0 && samples.count < 10 { samples.append("\(kind): \(detail)") }
    }

    private enum CodingKeys: String, CodingKey {
        case counts = "errors"
        case samples = "error_samples"
    }
}
