import BmobServer
import BmobStore
import BmobTesting
import BmobWire
import Foundation
import Testing

/// PostgreSQL going away under load, on a cluster of the test's own: requests answer Bmob's 503 while it is away,
/// the store reconnects when it is back, and no acknowledged write is lost.
@Suite("PostgreSQL failover", .enabled(if: TestPostgres.isSelected, "runs in the PostgreSQL pass of make test (BMOB_TEST_ENGINE=postgres)"))
struct FailoverTests {
    @Test("stopped and started under writes: only 201 or 503 meanwhile, every acknowledged write kept, then all works")
    func restartUnderWrites() async throws {
        let postgres = PrivatePostgres()
        defer { postgres.destroy() }
        let url = try await withoutBlockingThePool { try postgres.start() }
        let recorder = RecordingLogHandler()
        let server = try await TestServer.start(logger: Logger(label: "test", level: .info, handler: recorder)) {
            $0.storage = .postgres(url: url)
        }
        do {
            var acknowledged: [String] = []
            var statuses: [Int: Int] = [:]
            var unavailable: RawHTTPResponse?
            // Before the outage.
            for index in 0..<10 {
                let response = try await server.call("POST", "/1/classes/Load", json: ["i": .int(Int64(index))])
                #expect(response.status == 201, "\(response.text)")
                acknowledged.append(try #require(response.json?["objectId"]?.stringValue))
            }
            // Writes keep coming while the database stops and starts again.
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    try await Task.sleep(for: .milliseconds(100))
                    try await withoutBlockingThePool { try postgres.stop() }
                    try await Task.sleep(for: .milliseconds(700))
                    _ = try await withoutBlockingThePool { try postgres.start() }
                }
                var index = 10
                let deadline = ContinuousClock.now + .seconds(20)
                var afterRecovery = 0
                while afterRecovery < 10, ContinuousClock.now < deadline {
                    let response = try await server.call("POST", "/1/classes/Load", json: ["i": .int(Int64(index))])
                    index += 1
                    statuses[response.status, default: 0] += 1
                    if response.status == 201 {
                        acknowledged.append(try #require(response.json?["objectId"]?.stringValue))
                        if unavailable != nil { afterRecovery += 1 }
                    } else {
                        unavailable = response
                        try await Task.sleep(for: .milliseconds(20))
                    }
                }
                try await group.waitForAll()
                #expect(afterRecovery == 10, "writes did not recover: \(statuses) \(recorder.entries.suffix(3).map(\.message))")
            }
            #expect(Set(statuses.keys).isSubset(of: [201, 503]), "statuses: \(statuses)")
            let outage = try #require(unavailable, "no request saw the outage: \(statuses)")
            #expect(outage.json?["code"] != nil && outage.json?["error"]?.stringValue != nil, "\(outage.text)")
            // Everything acknowledged is there, and reads work again.
            let listed = try await server.call("GET", "/1/classes/Load?limit=1000&keys=objectId")
            let stored = Set(listed.json?["results"]?.arrayValue?.compactMap { $0["objectId"]?.stringValue } ?? [])
            #expect(Set(acknowledged).isSubset(of: stored), "lost: \(Set(acknowledged).subtracting(stored))")
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }
}
