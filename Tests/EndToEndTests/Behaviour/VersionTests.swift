import BmobCore
import BmobRealtime
import BmobSDK
import BmobServer
import BmobTesting
import BmobWire
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

extension EndToEnd {
    /// The SDK and the server ship as one release: its number is `BmobVersion.current`, and both sides report it.
    @Suite("Release version", .timeLimit(.minutes(1)))
    struct VersionTests {
        @Test("the number is major.minor.patch, and Bmob.sdkVersion is it")
        func shape() {
            let parts = BmobVersion.current.split(separator: ".", omittingEmptySubsequences: false)
            #expect(parts.count == 3)
            #expect(parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCII) && UInt($0) != nil })
            #expect(Bmob.sdkVersion == BmobVersion.current)
        }

        @Test("the SDK's realtime handshake and WebSocket send User-Agent BmobSwiftSDK/<release> (<platform> <os>)")
        func userAgent() throws {
            let product = BmobUserAgent.product
            #expect(product.hasPrefix("BmobSwiftSDK/\(BmobVersion.current) (\(BmobUserAgent.platform) "))
            #expect(product.hasSuffix(")"))
            let url = try #require(URL(string: "http://127.0.0.1:8080/socket.io/1/?t=1"))
            let request = BmobEventEnvironment.handshakeRequest(url: url, timeout: .seconds(5))
            #expect(request.value(forHTTPHeaderField: "User-Agent") == product)
            #expect(request.timeoutInterval == 5)
            // The native protocol's User-Agent stays `<seconds><platform><os>`: its bytes key the envelope.
            #expect(!BmobUserAgent.make().contains("BmobSwiftSDK"))
        }

        @Test("the server reports the release: /1/serverInfo, Bmob.serverInfo() and the native handshake's Response-Id")
        func serverReports() async throws {
            let server = try await SDKFixture.server()
            let response = try await server.request("GET", "/1/serverInfo", headers: [])
            #expect(response.status == 200)
            #expect(try JSONParser.parse(response.body)["version"]?.stringValue == BmobVersion.current)
            #expect(try await Bmob.serverInfo().version == Bmob.sdkVersion)
            #expect(Server.version == "BmobSwift/\(BmobVersion.current)")
            #expect(NativeRoutes.responseId(seconds: 1_761_040_954).hasSuffix(Server.version))
        }
    }
}
