/// What a BQL statement run by ``BmobQuery/find(bql:values:)`` answers: the objects its `select` asked for and,
/// when it selects `count(*)`, how many objects match.
///
/// ```swift
/// let result = try await BmobQuery.find(bql: "select count(*), * from GameScore where score > ? limit 10", values: [50])
/// print(result.count ?? 0, result.results.map(\.objectId))
/// ```
public struct BmobBQLResult: Sendable {
    /// The class the statement reads (its `from`).
    public let className: String
    /// The matching objects; empty for `select count(*) from …` alone.
    public let results: [BmobObject]
    /// The number of matching objects when the statement selects `count(*)`, otherwise `nil`.
    public let count: Int?

    /// Makes a result; the SDK makes them from the server's answer.
    public init(className: String, results: [BmobObject], count: Int?) {
        self.className = className
        self.results = results
        self.count = count
    }
}
