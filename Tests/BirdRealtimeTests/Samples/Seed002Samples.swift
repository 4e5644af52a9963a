// The code samples of seed 002 (the German BirdRealtime SDK documentation), each wrapped in a function and
// otherwise exactly as written there. `Seed002SampleTests` runs them against the in-process server.
//
// The first sample's `import BirdRealtime` is the only module of ours the samples need; later ones build `URL`s, a
// Foundation type, so this file imports Foundation as any app file that builds URLs does (as the SDK's other sample
// files in Tests/EndToEndTests/Samples do). BirdRealtime does not re-export Foundation: a re-export puts all of
// Foundation (and Glibc) into its symbol graph and documentation.
import BirdRealtime
import Foundation


// "Client erstellen"
func sampleCreateClient() {
    let bird = BirdRealtime(options: .init(
        appKey: "your-app-key",
        region: "us1"
    ))
    _ = bird
}

// "Einen Channel abonnieren" (`bird` from the previous sample)
func sampleSubscribe(bird: BirdRealtime) {
    let orders = bird.subscribe("orders")
    orders.bind("order-updated") { data in
        print("order changed:", data ?? "")
    }
}

// "Private und Presence-Channels"
func samplePrivateAndPresence() {
    let bird = BirdRealtime(options: .init(
        appKey: "your-app-key",
        region: "us1",
        authEndpoint: URL(string: "https://your-backend.example.com/bird/auth")!,
        authHeaders: ["authorization": "Bearer <session token>"]
    ))

    guard let room = bird.subscribe("presence-room-42") as? PresenceChannel else { return }
    room.bind(BirdProtocol.Event.subscriptionSucceeded) { _ in
        print("me:", room.myId ?? "?", "members:", Array(room.members.keys))
    }
    room.bind(BirdProtocol.Event.memberAdded) { member in
        print("joined:", member ?? "")
    }
}

// "Ein Mitglied anmelden"
func sampleSignin() async throws {
    let bird = BirdRealtime(options: .init(
        appKey: "your-app-key",
        region: "us1",
        memberAuthEndpoint: URL(string: "https://your-backend.example.com/bird/auth/member")!
    ))

    let me = try await bird.signin()
    print("signed in as", me.memberId)

    bird.member.bind("order.shipped") { data in
        print("addressed to me:", data ?? "")
    }
}

// "Verbindungslebenszyklus" (`bird` from a previous sample)
func sampleLifecycle(bird: BirdRealtime) {
    bird.onConnectionStateChange { previous, current in
        print("connection: \(previous) → \(current)")
    }
    bird.onError { error in
        if error.code == 4009 { print("session ended elsewhere") }
    }
}

// "Client-Events" (`room` from the presence sample)
func sampleClientEvents(room: PresenceChannel) throws {
    try room.trigger("client-typing", data: ["on": true])
}

// The development-target form.
func sampleInsecureLocalhost() -> BirdRealtime {
    BirdRealtime(options: .init(appKey: "your-app-key", wsHost: "localhost:6001", allowInsecure: true))
}
