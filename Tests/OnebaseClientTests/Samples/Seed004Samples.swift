// The Swift code samples of seed 004 (onebase's Swift client page), each wrapped in a function and otherwise as
// written there. `Seed004SampleTests` runs them against the in-process server.
//
// Two additions, both marked: the page's `// render them` placeholder is filled with `_ = notes`, and the first
// sample ends with `_ = (id, best)`; the unused values would otherwise be warnings, which `BMOB_STRICT=1` makes
// errors. Foundation is imported for `FileManager`, as any app file using it does.
import Foundation
import OnebaseClient

// "Connect and use"
func sampleConnectAndUse() async throws {
    let documents = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask)[0]
    let client = OnebaseClient(url: "https://api.example.com", offlineDirectory: documents)

    client.onConnectionChange = { state in } // .connecting / .open / .closed

    // Live queries: onUpdate runs with every new result, on the main queue.
    var subscription: OnebaseSubscription?
    subscription = client.subscribe("notes:list", [:]) { value in
        let notes = value?.array ?? []
        // render them
        _ = notes // (added: stands for the rendering)
    }
    subscription?.cancel() // when the view goes away

    let id = try await client.mutation("notes:add", ["text": "Hello"])
    let best = try await client.query("notes:best", [:])
    try await client.action("emails:sendWelcome", ["to": "someone@example.com"])
    _ = (id, best) // (added)
}

// "Values are OnebaseValue": arguments from literals and Codable types, reads.
struct SampleNote: Codable {
    var text: String
}

func sampleValues(value: OnebaseValue?) throws {
    let note = SampleNote(text: "Hello")
    let fromLiterals: OnebaseValue = ["text": "Hello", "count": 3]
    let fromCodable = try OnebaseValue(note)
    _ = (fromLiterals, fromCodable) // (added)
    _ = value?.array
    _ = value?["user", "name"]?.string
    _ = value?.int
    let v: OnebaseValue = ["count": 3]
    _ = v // (added)
}

// "Optimistic updates" (`client` from the first sample)
func sampleOptimisticUpdate(client: OnebaseClient) async throws {
    try await client.mutation("notes:add", ["text": "Hello"]) { store in
        let current = store.get("notes:list")?.array ?? []
        store.set("notes:list", [:], .array(current + [["text": "Hello"]]))
    }
}

// "Auth" (`client` from the first sample)
func sampleAuth(client: OnebaseClient) async throws {
    client.onAuthChange = { signedIn in } // false when the token stops checking out
    let token = try await client.signInPassword(email: "someone@example.com", password: "correct horse")
    let codeFlowToken = try await client.signInPassword(email: "…", password: "…", flow: "signUp") // nil: a code was emailed
    try await client.signOut()
    _ = (token, codeFlowToken) // (added)
}

// "Any other token (an external provider's) works with client.setToken("…")."
func sampleSetToken(client: OnebaseClient) {
    client.setToken("…")
}

// "Offline": the store's size, the queue's count and clearing, failures of earlier runs' mutations.
func sampleOffline(directory: URL) {
    let store = OfflineStore(directory: directory, maxCachedQueries: 100)
    let client = OnebaseClient(url: "https://api.example.com", offlineStore: store)
    client.onQueuedMutationFailure = { name, args, error in }
    _ = client.queuedMutationCount
    client.clearQueuedMutations()
}
