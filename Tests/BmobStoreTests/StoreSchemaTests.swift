import BmobStore
import BmobWire
import Testing

/// The schema registry: fields recorded once, type mismatches, names, persistence.
@Suite("Store schema registry")
struct StoreSchemaTests {
    @Test(arguments: StoreEngine.allCases)
    func recordFieldsAddsNewFieldsAndKeepsOld(engine: StoreEngine) async throws {
        try await engine.withStore { store, _ async throws in
            try await store.write(caller: nil) { transaction in
                try transaction.recordFields(className: "Post", fields: ["title": .init(type: .string)])
            }
            try await store.write(caller: nil) { transaction in
                try transaction.recordFields(
                    className: "Post",
                    fields: [
                        "title": .init(type: .string), "author": .init(type: .pointer, targetClass: "_User"),
                    ])
            }
            let schema = try await store.read { try $0.schema(className: "Post") }
            #expect(schema == ["title": .init(type: .string), "author": .init(type: .pointer, targetClass: "_User")])
            // Recording fields creates the class, even before its first object.
            #expect(try await store.read { try $0.classNames() } == ["Post"])
            #expect(try await store.read { try $0.count(className: "Post") } == 0)
        }
    }

    @Test(arguments: StoreEngine.allCases)
    func typeMismatchUsesBmobsMessage(engine: StoreEngine) async throws {
        try await engine.withStore { store, _ async throws in
            try await store.write(caller: nil) { transaction in
                try transaction.recordFields(
                    className: "Post",
                    fields: ["score": .init(type: .number), "author": .init(type: .pointer, targetClass: "_User")])
            }
            let error = await #expect(throws: StoreError.self) {
                try await store.write(caller: nil) { transaction in
                    try transaction.recordFields(
                        className: "Post", fields: ["score": .init(type: .string), "fresh": .init(type: .date)])
                }
            }
            #expect(error?.code == .typeMismatch)
            #expect(error?.message == "invalid type for key 'score', expected 'Number', but got 'String'")
            #expect(error?.bmobCode == .incorrectType)

            let pointerError = await #expect(throws: StoreError.self) {
                try await store.write(caller: nil) { transaction in
                    try transaction.recordFields(
                        className: "Post", fields: ["author": .init(type: .pointer, targetClass: "Team")])
                }
            }
            #expect(
                pointerError?.message
                    == "invalid type for key 'author', expected 'Pointer<_User>', but got 'Pointer<Team>'")
            // The failed call recorded nothing, not even its valid new field.
            #expect(try await store.read { try $0.schema(className: "Post") }["fresh"] == nil)
        }
    }

    @Test(arguments: StoreEngine.allCases)
    func invalidFieldNamesAreRejected(engine: StoreEngine) async throws {
        try await engine.withStore { store, _ async throws in
            for name in ["", "1a", "_private", "a-b", "a b"] {
                let error = await #expect(throws: StoreError.self) {
                    try await store.write(caller: nil) { transaction in
                        try transaction.recordFields(className: "Post", fields: [name: .init(type: .string)])
                    }
                }
                #expect(error?.code == .invalidFieldName)
                #expect(error?.bmobCode == .invalidFieldName)
            }
            #expect(try await store.read { try $0.classNames() }.isEmpty)
        }
    }

    @Test(arguments: StoreEngine.allCases)
    func schemaRegistryPersistsAcrossReopen(engine: StoreEngine) async throws {
        let database = try engine.makeDatabase()
        defer { database.remove() }
        let first = try await database.open()
        try await first.write(caller: nil) { transaction in
            try transaction.recordFields(
                className: "Post", fields: ["title": .init(type: .string), "tags": .init(type: .array)])
            try transaction.recordFields(className: "_User", fields: ["age": .init(type: .number)])
            try transaction.insert(Fixtures.post("p1"))
        }
        await first.close()

        let second = try await database.open()
        #expect(
            try await second.read { try $0.schema(className: "Post") }
                == ["title": .init(type: .string), "tags": .init(type: .array)])
        #expect(try await second.read { try $0.schema(className: "_User") } == ["age": .init(type: .number)])
        #expect(try await second.read { try $0.classNames() } == ["Post", "_User"])
        let error = await #expect(throws: StoreError.self) {
            try await second.write(caller: nil) { transaction in
                try transaction.recordFields(className: "Post", fields: ["tags": .init(type: .object)])
            }
        }
        #expect(error?.message == "invalid type for key 'tags', expected 'Array', but got 'Object'")
        await second.close()
    }
}
