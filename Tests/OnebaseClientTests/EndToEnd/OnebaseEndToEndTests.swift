import BmobRealtime
import BmobServer
import BmobTesting
import BmobWire
import Foundation
@testable import OnebaseClient
import Testing

/// The client against the in-process server: restarts with a queued mutation, the offline cache across a cold start,
/// and the cache of one user never shown to another.
@Suite("OnebaseClient end to end", .serialized)
struct OnebaseEndToEndTests {
    @Test("a mutation queued offline survives a kill: the next client instance on the same directory sends it")
    func queuedAcrossRestart() async throws {
        try await OnebaseServer.with { server in
            let directory = server.folder.appendingPathComponent("app")
            // The first run never reaches the server; its mutation is queued on disk, then the run is "killed"
            // (abandoned: it keeps failing to connect and never sends).
            let first = try await server.withClients(online: { false }) {
                OnebaseClient(url: "https://api.example.com", offlineDirectory: directory)
            }
            let abandoned = Task { try await first.mutation("notes:add", ["text": "queued offline"]) }
            try await waitUntil("the mutation is queued") { first.queuedMutationCount == 1 }

            try await server.withClients {
                let failures = Recorder<String>()
                let values = Recorder<OnebaseValue?>()
                let second = await MainActor.run {
                    let second = OnebaseClient(url: "https://api.example.com", offlineDirectory: directory)
                    second.onQueuedMutationFailure = { name, _, _ in failures.append(name) }
                    return second
                }
                #expect(second.queuedMutationCount == 1)
                let subscription = second.subscribe("notes:list") { values.append($0) }
                try await waitUntil("the queued note shows") {
                    values.all.last??.array?.first?["text"] == "queued offline"
                }
                try await waitUntil("the queue empties") { second.queuedMutationCount == 0 }
                #expect(try await server.noteTexts() == ["queued offline"])
                #expect(failures.all.isEmpty)
                subscription.cancel()
            }
            abandoned.cancel()
        }
    }

    @Test("a queued mutation of an earlier run that the server refuses is reported through onQueuedMutationFailure")
    func earlierRunsFailure() async throws {
        try await OnebaseServer.with { server in
            let directory = server.folder.appendingPathComponent("app")
            let first = try await server.withClients(online: { false }) {
                OnebaseClient(url: "https://api.example.com", offlineDirectory: directory)
            }
            // Signed out, notes:addMine throws on the server.
            let abandoned = Task { try await first.mutation("notes:addMine", ["text": "nobody's"]) }
            try await waitUntil("the mutation is queued") { first.queuedMutationCount == 1 }
            try await server.withClients {
                let failures = Recorder<String>()
                let second = await MainActor.run {
                    let second = OnebaseClient(url: "https://api.example.com", offlineDirectory: directory)
                    second.onQueuedMutationFailure = { name, args, error in
                        failures.append("\(name) \(args["text"]?.string ?? "") \(error.message)")
                    }
                    return second
                }
                try await waitUntil("the failure is reported") { !failures.all.isEmpty }
                #expect(failures.all == ["notes:addMine nobody's sign in first"])
                #expect(second.queuedMutationCount == 0)
                #expect(try await server.noteTexts().isEmpty)
            }
            abandoned.cancel()
        }
    }

    @Test("the cache shows a user's results on a cold start offline, and a different user clears it")
    func userChangeClearsCache() async throws {
        try await OnebaseServer.with { server in
            let directory = server.folder.appendingPathComponent("app")
            let (ada, adaToken) = try await server.signUp("ada@example.com", password: "pw-ada")
            let (bob, bobToken) = try await server.signUp("bob@example.com", password: "pw-bob")

            // Ada's run: her note is live, and cached.
            try await server.withClients {
                let client = OnebaseClient(url: "https://api.example.com", offlineDirectory: directory)
                client.setToken(adaToken)
                let values = Recorder<OnebaseValue?>()
                let subscription = client.subscribe("notes:mine") { values.append($0) }
                try await client.mutation("notes:addMine", ["text": "ada's note"])
                #expect(values.all.last??.array?.first?["text"] == "ada's note")
                subscription.cancel()
            }

            // A cold start offline, with Ada's token still stored: her cached note shows.
            try await server.withClients(online: { false }) {
                let client = OnebaseClient(url: "https://api.example.com", offlineDirectory: directory)
                let values = Recorder<OnebaseValue?>()
                let subscription = client.subscribe("notes:mine") { values.append($0) }
                try await waitUntil("the cached note shows") { values.all.last??.array?.first?["text"] == "ada's note" }
                subscription.cancel()
            }

            // Bob signs in: once the server confirms him, Ada's cache is gone.
            try await server.withClients {
                let client = OnebaseClient(url: "https://api.example.com", offlineDirectory: directory)
                let auth = Recorder<Bool>()
                client.onAuthChange = { auth.append($0) }
                // (Made with Ada's token still stored, it may show her cache until the new token is set.)
                client.setToken(bobToken)
                let values = Recorder<OnebaseValue?>()
                let subscription = client.subscribe("notes:mine") { values.append($0) }
                try await waitUntil("Bob is confirmed") { auth.all.contains(true) }
                try await waitUntil("Bob's (empty) list arrives") { values.all.last == .some([]) }
                #expect(!values.all.contains { $0?.array?.contains { $0["text"] == "ada's note" } == true })
                // On disk: the store is Bob's, and Ada's record is gone.
                let store = OfflineStore(directory: client.offlineStore!.directory)
                let mine = MachineHarness.token("notes:mine").canonical
                #expect(store.meta.confirmedUserId == bob)
                #expect(store.cachedValue(mine, user: ada) == nil && store.cachedValue(mine, user: bob) == [])
                subscription.cancel()
            }

            // A cold start offline as Bob: Ada's note is never shown.
            try await server.withClients(online: { false }) {
                let client = OnebaseClient(url: "https://api.example.com", offlineDirectory: directory)
                let values = Recorder<OnebaseValue?>()
                let subscription = client.subscribe("notes:mine") { values.append($0) }
                try await waitUntil("Bob's cached list shows") { values.all.last == .some([]) }
                try await Task.sleep(for: .milliseconds(100))
                #expect(values.all == [[]])
                subscription.cancel()
            }
        }
    }

    @Test("a server restart while the queue drains: the one in flight fails, the rest go once, in order, to the new server")
    func serverRestartWhileDraining() async throws {
        var functions = OnebaseServer.functions
        // Slow enough that the restart lands while one is in flight.
        functions.mutation("notes:addSlowly", args: ["text": .string]) { context, args in
            usleep(300_000)
            return .string(try context.db.insert("notes", ["text": args["text"]!]))
        }
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("onebase-restart-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        var server = try await TestServer.start(dataDirectory: data, functions: functions)
        let port = server.port
        let folder = data.appendingPathComponent("client")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let online = LockedFlag(false)
        let backend = OnebaseServer(server: server, folder: folder)
        do {
            try await backend.withClients(online: { online.value }) {
                let client = OnebaseClient(url: "https://api.example.com", offlineDirectory: folder)
                let outcomes = Recorder<String>()
                var calls: [Task<Void, Never>] = []
                for index in 0..<5 {
                    try await waitUntil("mutation \(index) is queued") { client.queuedMutationCount == index }
                    calls.append(Task {
                        do {
                            _ = try await client.mutation("notes:addSlowly", ["text": .string("n\(index)")])
                            outcomes.append("ok n\(index)")
                        } catch {
                            outcomes.append("failed n\(index)")
                        }
                    })
                }
                try await waitUntil("five are queued") { client.queuedMutationCount == 5 }
                online.set(true)
                try await waitUntil("the first is answered") { !outcomes.all.isEmpty }
                await server.stop()
                server = try await TestServer.start(dataDirectory: data, functions: functions) { $0.port = port }
                try await waitUntil("the queue drains") { client.queuedMutationCount == 0 }
                for call in calls { await call.value }
                let texts = try await OnebaseServer(server: server, folder: folder).noteTexts()
                // Each note at most once, in queue order; every one the client was told succeeded is there, and
                // at least one (the one in flight when the server went) failed.
                #expect(texts == texts.sorted() && Set(texts).count == texts.count, "\(texts)")
                for outcome in outcomes.all where outcome.hasPrefix("ok ") {
                    #expect(texts.contains(String(outcome.dropFirst(3))), "\(outcome) is missing from \(texts)")
                }
                #expect(outcomes.all.contains { $0.hasPrefix("failed") }, "\(outcomes.all)")
                #expect(texts.last == "n4", "the queue went on after the restart: \(texts)")
            }
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }
}

/// A flag the test flips while clients read it from their threads.
private final class LockedFlag: @unchecked Sendable {
    // Invariant: `flag` is read and written only under `lock`.
    private let lock = NSLock()
    private var flag: Bool
    init(_ value: Bool) { flag = value }
    var value: Bool { lock.withLock { flag } }
    func set(_ value: Bool) { lock.withLock { flag = value } }
}
