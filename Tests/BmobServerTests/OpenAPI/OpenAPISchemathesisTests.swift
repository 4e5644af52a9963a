import BmobTesting
import Testing

/// schemathesis (PyPI), an independent property-based tester, against a live server with the document it serves:
/// no answer may be a server error, and every answer's status, content type, headers and body must match the
/// document. Its generated requests (valid and invalid bodies, parameters and paths) are the REST door's hostile
/// input. Bounded in examples per operation with a fixed seed, so a run is repeatable and takes about a minute;
/// once, in the SQLite pass (the document and the doors do not depend on the engine).
/// The two runs go one after the other: each keeps a core busy for most of a minute, and side by side they
/// starved the rest of the suite on two cores.
@Suite(.serialized, .enabled(if: !TestPostgres.isSelected, "runs in the SQLite pass of make test"))
struct OpenAPISchemathesisTests {
    /// Every check but `positive_data_acceptance`, which wants a schema-valid request to succeed: a valid request
    /// names data the generator cannot know (an objectId that exists, a code that was sent), and Bmob answers a
    /// missing object 400 with code 101, not 404. So: no 5xx; status, content type, headers and body as documented;
    /// schema-violating requests refused; keys enforced (`ignored_auth`); 405 for undocumented methods; deleted
    /// objects gone (`use_after_free`) and created ones there (`ensure_resource_availability`) along the links the
    /// tester infers from `Location`.
    static let excludedChecks = ["positive_data_acceptance"]

    @Test func masterKeyRequestsMatchTheDocument() async throws {
        try await run(keyHeader: "X-Bmob-Master-Key", key: TestServer.masterKey)
    }

    /// As a client of the app: ACLs, class permissions and `_User` privacy apply, schemas answer 401.
    @Test func restKeyRequestsMatchTheDocument() async throws {
        try await run(keyHeader: "X-Bmob-REST-API-Key", key: TestServer.restKey)
    }

    private func run(keyHeader: String, key: String) async throws {
        let server = try await TestServer.start()
        do {
            _ = try await PythonPeer.run(
                "schemathesis_run.py",
                [
                    server.baseURL, TestServer.applicationId, keyHeader, key,
                    "--checks", "all", "--exclude-checks", Self.excludedChecks.joined(separator: ","),
                    "--max-examples", "15", "--seed", "23", "--generation-database", "none",
                    // A loaded CI machine is slow, not wrong: no health check on generation speed, and a request
                    // may take its time.
                    "--suppress-health-check", "all", "--request-timeout", "30",
                ],
                timeout: 600)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }
}
