import BmobSDK
import BmobTesting
import Foundation
import Testing

@testable import BmobUser

extension EndToEnd {
    @Suite("The saved current user")
    @MainActor
    struct CurrentUserStorageTests {
        #if !canImport(Security)
        @Test("a login is saved in a file only its owner can read, and logout removes it")
        func fileIsPrivate() async throws {
            _ = try await SDKFixture.server()
            let user = BmobUser()
            user.username = "stored" + String(UUID().uuidString.prefix(8)).lowercased()
            user.password = "pw"
            try await user.signUp()
            let url = BmobCurrentUserStore.fileURL(TestServer.applicationId)
            let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
            let text = try String(contentsOf: url, encoding: .utf8)
            #expect(text.contains(user.sessionToken ?? "missing"))
            #expect(text.contains("\"pw\"") == false)

            // A fresh process would restore it.
            await BmobUser.restoreCurrent()
            #expect(BmobUser.current?.objectId == user.objectId)
            BmobUser.logout()
            #expect(FileManager.default.fileExists(atPath: url.path) == false)
        }
        #endif
    }
}
