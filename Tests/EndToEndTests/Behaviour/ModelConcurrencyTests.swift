import BmobSDK
import BmobWire
import Testing

/// A view model as an app would write one: model values in `@MainActor` properties, saved and queried from
/// main-actor methods and from detached tasks.
@MainActor
final class NotesViewModel {
    var note = BmobObject(className: "Note")
    var query = BmobQuery(className: "Note")
    var acl = BmobACL()
    var batch = BmobBatch()
    var results: [BmobObject] = []

    func saveNote(title: String) async throws {
        note["title"] = title
        acl.setReadAccess(enabled: true, forRole: .public)
        acl.setWriteAccess(enabled: true, forRole: .public)
        note.acl = acl
        try await note.save()
    }

    func load() async throws {
        results = try await query.whereKey("title", equalTo: "主线程").find()
    }
}

extension EndToEnd {
    @Suite("Model types from the main actor and from other tasks")
    struct ModelConcurrencyTests {
        @Test("each model type works as a @MainActor property and crosses into detached tasks")
        @MainActor
        func mainActorViewModel() async throws {
            try await SDKFixture.emptyClasses("Note")
            let model = NotesViewModel()
            try await model.saveNote(title: "主线程")
            try await model.load()
            #expect(model.results.count == 1)
            #expect(model.results.first?.acl?.readAccess(for: "*") == true)

            // The same objects, used from a task off the main actor.
            let note = model.note
            let query = model.query
            let batch = model.batch
            let counted = try await Task.detached {
                note["extra"] = 1
                batch.save(note)
                _ = try await batch.execute()
                return try await query.count()
            }.value
            #expect(counted == 1)
            #expect(try await SDKFixture.restObject("Note", note.objectId ?? "")?["extra"] == 1)
        }
    }
}
