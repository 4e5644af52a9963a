import BmobTesting
import Testing

/// schemathesis (PyPI), an independent property-based tester, against a live server with the document it serves:
/// no answer may be a server error, and every answer's status, content type, headers and body must match the
/// document. Its generated requests (valid and invalid bodies, parameters and paths) are the REST door's hostile
/// input. Bounded in examples per operation with a fixed seed, so a run is repeatable and takes a few minutes at
/// most; once, in the SQLite pass (the document and the doors do not depend on the engine).
@Suite(.enabled(if: !TestPostgres.isSelected, "runs in the SQLite pass of make test"))
struct OpenAPISchemathesisTests {
    /// The checks that hold for every operation: the others judge whether a valid request succeeds or an invalid
    /// one fails, which depends on data the generator cannot know (an objectId that exists, a code that was sent).
    static let checks = [
        "not_a_server_error", "status_code_conformance", "content_type_conformance",
        "response_headers_conformance", "response_schema_conformance",
    ]

    @Test func masterKeyRequestsMatchTheDocument() async throws {
        try await run(keyHeader: "X-Bmob-Master-Key", key: TestServer.masterKey)
    }

    private func run(keyHeader: String, key: String) async throws {
        let server = try await TestServer.start()
        do {
            _ = try await PythonPeer.run(
                "schemathesis_run.py",
                [
                    server.baseURL, TestServer.applicationId, keyHeader, key,
                    "--checks", Self.checks.joined(separator: ","),
                    "--max-examples", "8", "--seed", "23",
                    "--workers", "1",
                ],
                timeout: 600)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }
}
