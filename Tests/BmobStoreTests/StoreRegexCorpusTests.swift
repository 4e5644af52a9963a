import BmobStore
import BmobWire
import Testing

/// Every case of the `$regex` differential corpus (``BoundedRegexCorpusTests``) through each engine's `$regex`:
/// SQLite runs ``BoundedRegex`` itself, PostgreSQL its own `~` on the translated pattern, and both must give the
/// corpus's answer. Each case's subject is one object; each query asks for that object with the case's pattern.
@Suite("Store $regex corpus")
struct StoreRegexCorpusTests {
    @Test(arguments: StoreEngine.allCases)
    func everyEngineAnswersTheCorpus(engine: StoreEngine) async throws {
        let cases = try BoundedRegexCorpusTests.corpus()
        try await engine.withStore { store, _ async throws in
            let objects = cases.enumerated().map { index, entry in
                StoredObject(
                    className: "Corpus", objectId: "c\(index)", createdAt: 1, updatedAt: 1,
                    fields: ["s": .string(entry.subject), "n": .int(Int64(index))])
            }
            try await store.write(caller: nil) { transaction in
                try transaction.recordFields(
                    className: "Corpus", fields: ["s": FieldSchema(type: .string), "n": FieldSchema(type: .number)])
                for object in objects { try transaction.insert(object) }
            }
            var disagreements: [String] = []
            for (index, entry) in cases.enumerated() {
                let query = FindQuery(
                    className: "Corpus",
                    condition: .and([
                        .field(path: "n", constraints: [.equalTo(.int(Int64(index)))]),
                        .field(path: "s", constraints: [.matchesRegex(pattern: entry.pattern, options: entry.options)]),
                    ]))
                let found = try await store.read { try $0.count(query) } == 1
                if found != entry.matches {
                    disagreements.append("#\(index) /\(entry.pattern)/\(entry.options): expected \(entry.matches)")
                }
            }
            #expect(disagreements.isEmpty, "\(disagreements.prefix(20))")
        }
    }
}
