import BmobServer
import BmobTesting
import BmobWire
import Foundation
import Testing

/// The console's files: compiled in exactly as they are in `Sources/BmobServer/Console/Assets`, served with their
/// content types and a strict Content-Security-Policy, and nothing else under `/console/`.
@Suite struct ConsoleAssetTests {
    private static let assetFolder = PythonPeers.packageRoot.appendingPathComponent("Sources/BmobServer/Console/Assets")

    @Test func embeddedAssetsAreTheFilesOnDisk() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.assetFolder.path).sorted()
        #expect(names == ["console.css", "console.js", "i18n.js", "index.html"])
        for name in names {
            let onDisk = try [UInt8](Data(contentsOf: Self.assetFolder.appendingPathComponent(name)))
            let embedded = try #require(
                ConsoleAsset.named(name), "\(name) is not embedded; run scripts/embed-console.sh")
            #expect(embedded.body == onDisk, "\(name) differs from its embedded copy; run scripts/embed-console.sh")
        }
    }

    @Test func pageHasNoInlineCodeAndScriptsNeverWriteHTML() throws {
        let html = String(decoding: try #require(ConsoleAsset.named("index.html")).body, as: UTF8.self)
        // Every script has a src on this origin; no inline handlers or styles (the CSP would refuse them).
        #expect(html.components(separatedBy: "<script").count - 1 == 2)
        #expect(!html.contains("<script>") && !html.contains(" onload=") && !html.contains("style="))
        #expect(!html.contains("http://") && !html.contains("https://"))
        for name in ["console.js", "i18n.js"] {
            let script = String(decoding: try #require(ConsoleAsset.named(name)).body, as: UTF8.self)
            for forbidden in [
                "innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function",
                "localStorage.setItem(SESSION",
            ] {
                #expect(!script.contains(forbidden), "\(name) uses \(forbidden)")
            }
            #expect(!script.contains("http://") && !script.contains("https://"), "\(name) names a remote origin")
        }
    }

    @Test func pageAndFilesAreServedWithTypesAndSecurityHeaders() async throws {
        try await withTestServer { server in
            for (path, type) in [
                ("/console", "text/html; charset=utf-8"), ("/console/", "text/html; charset=utf-8"),
                ("/console/index.html", "text/html; charset=utf-8"),
                ("/console/console.js", "text/javascript; charset=utf-8"),
                ("/console/i18n.js", "text/javascript; charset=utf-8"),
                ("/console/console.css", "text/css; charset=utf-8"),
            ] {
                let response = try await server.request("GET", path)
                #expect(response.status == 200, "\(path)")
                #expect(response.headers["Content-Type"] == type, "\(path)")
                #expect(response.headers["X-Content-Type-Options"] == "nosniff")
                #expect(response.headers["X-Frame-Options"] == "DENY")
                #expect(response.headers["Cache-Control"] == "no-cache")
                let policy = try #require(response.headers["Content-Security-Policy"])
                #expect(policy.contains("default-src 'none'") && policy.contains("script-src 'self'"))
                #expect(
                    policy.contains("frame-ancestors 'none'")
                        && policy.contains("connect-src 'self' ws://localhost wss://localhost;"))
                #expect(!policy.contains("unsafe"))
            }
            let page = try await server.request("GET", "/console")
            #expect(page.text.contains("/console/console.js"))
            // A validator: the same file again is a 304 without a body.
            let etag = try #require(page.headers["ETag"])
            let again = try await server.request("GET", "/console", headers: [("If-None-Match", etag)])
            #expect(again.status == 304 && again.body.isEmpty)
        }
    }

    @Test func hostileHostHeaderStaysOutOfThePolicy() async throws {
        try await withTestServer { server in
            let connection = try server.connect()
            try await connection.send(Array("GET /console HTTP/1.1\r\nHost: evil.example;script-src:*\r\n\r\n".utf8))
            let response = try await connection.readResponse()
            let policy = try #require(response.headers["Content-Security-Policy"])
            #expect(!policy.contains("evil") && !policy.contains("script-src:*"))
            #expect(policy.contains("connect-src 'self';"))
        }
    }

    @Test func unknownNamesAndTraversalsAreRefused() async throws {
        try await withTestServer { server in
            for path in [
                "/console/nothing.js", "/console/..%2Fapps.json", "/console/%2e%2e%2fapps.json",
                "/console/../apps.json",
                "/console/Assets/console.js", "/console/index.html%00", "/console/console.js/", "/console/CONSOLE.JS",
                "/console/.%2e/.%2e/etc/passwd", "/console/" + String(repeating: "a", count: 3000),
            ] {
                let response = try await server.request("GET", path)
                #expect(
                    response.status >= 400 && response.status < 500 || path.hasSuffix("console.js/"),
                    "\(path): \(response.status)")
                #expect(!response.text.contains(TestServer.masterKey), "\(path)")
                if response.status == 404 {
                    #expect(response.json?["code"]?.int64Value == 404, "\(path)")
                }
            }
            // Files are read-only.
            let post = try await server.request("POST", "/console/console.js", body: Array("x".utf8))
            #expect(post.status == 405)
        }
    }
}
