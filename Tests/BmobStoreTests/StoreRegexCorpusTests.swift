import BmobStore
import BmobTesting
import BmobWire
import Testing

/// Every case of the `$regex` differential corpus (``BoundedRegexCorpusTests``) through PostgreSQL's `$regex`: its
/// own `~` on the translated pattern must give the corpus's answer, which is ``BoundedRegex``'s (what SQLite's
/// store runs, checked against the corpus by ``BoundedRegexCorpusTests``). Each case's subject is one object; each
/// query asks for that object with the case's pattern.
@Suite("Store $regex corpus", .enabled(if: TestPostgres.isSelected, "runs in the PostgreSQL pass of make test (BMOB_TEST_ENGINE=postgres)"))
struct StoreRegexCorpusTests {
    @Test
    func postgresAnswersTheCorpus() async throws {
        let engine = StoreEngine.postgres
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
