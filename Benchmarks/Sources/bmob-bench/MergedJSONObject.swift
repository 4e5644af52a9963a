/// Several encodable values written as one JSON object: each encodes its keys into the same container, so a
/// result can keep groups of fields shared with other results (``WriterOutcome``, ``LatencySummary``) as values
/// of their own and still print the flat object the benchmark drivers parse.
struct MergedJSONObject: Encodable {
    /// The values whose keys make up the object; none may repeat another's key.
    let parts: [any Encodable]

    func encode(to encoder: any Encoder) throws {
        for part in parts { try part.encode(to: encoder) }
    }
}
