import BmobTesting
import BmobWire
import Foundation
@testable import OnebaseClient
import Testing

/// Runs seed 004's samples, unchanged, against the in-process server: the environment points the samples' URL at
/// the test app, keeps offline files and tokens in a temporary folder, and fills the "…" placeholders of the
/// sign-up sample with a real address. Handlers run on the main queue, which Swift Testing's runner drains on Linux.
@Suite("OnebaseClient: seed 004's samples run against the server", .serialized)
struct Seed004SampleTests {
    @Test("Connect and use: the mutation writes a note, the query and the action run")
    func connectAndUse() async throws {
        try await OnebaseServer.with { server in
            try await server.withClients { try await sampleConnectAndUse() }
            #expect(try await server.noteTexts() == ["Hello"])
            #expect(OnebaseServer.welcomed.all.contains("someone@example.com"))
        }
    }

    @Test("Optimistic updates: the list shows the note at once, then the server's note, with nothing in between")
    func optimisticUpdates() async throws {
        try await OnebaseServer.with { server in
            try await server.withClients {
                let client = OnebaseClient(url: "https://api.example.com")
                let values = Recorder<OnebaseValue?>()
                let subscription = client.subscribe("notes:list", [:]) { values.append($0) }
                try await waitUntil("the first result") { values.all.count == 1 }
                #expect(values.all == [[]])
                try await sampleOptimisticUpdate(client: client)
                // Read-your-writes: the server's note was delivered before the mutation returned.
                let seen = values.all
                #expect(seen.count == 3, "\(seen)")
                #expect(seen.dropFirst().first == [["text": "Hello"]])
                let final = try #require(seen.last??.array?.first)
                #expect(final["text"] == "Hello" && final["objectId"]?.string != nil)
                // No flicker: once the optimistic note showed, every later value holds a "Hello" note.
                #expect(seen.dropFirst().allSatisfy { $0?.array?.contains { $0["text"] == "Hello" } == true })
                subscription.cancel()
            }
        }
    }

    @Test("Auth: sign in, start a sign-up (a code is mailed, nil), sign out (the token is gone)")
    func auth() async throws {
        try await OnebaseServer.with { server in
            _ = try await server.signUp("someone@example.com", password: "correct horse")
            try await server.withClients {
                let client = OnebaseClient(url: "https://api.example.com")
                try await sampleAuth(client: client)
                let mail = try server.server.outbox().last { $0["kind"] == "email" }
                #expect(mail?["to"] == "new-user@example.com")
                #expect(
                    OnebaseFileTokenStore(fileURL: server.folder.appendingPathComponent("token")).loadToken() == nil)
            }
        }
    }

    @Test("setToken with a token the server does not know: onAuthChange(false), the token is deleted")
    func setToken() async throws {
        try await OnebaseServer.with { server in
            try await server.withClients {
                let auth = Recorder<Bool>()
                let client = await MainActor.run {
                    let client = OnebaseClient(url: "https://api.example.com")
                    client.onAuthChange = { auth.append($0) }
                    return client
                }
                sampleSetToken(client: client)
                try await waitUntil("onAuthChange(false)") { auth.all == [false] }
                #expect(
                    OnebaseFileTokenStore(fileURL: server.folder.appendingPathComponent("token")).loadToken() == nil)
                // The client goes on signed out.
                #expect(try await client.query("notes:list") == [])
            }
        }
    }

    @Test("Offline and OnebaseValue samples run")
    func offlineAndValues() async throws {
        try await OnebaseServer.with { server in
            try await server.withClients {
                sampleOffline(directory: server.folder.appendingPathComponent("store"))
                try sampleValues(value: ["user": ["name": "Ann"]])
            }
        }
    }
}
