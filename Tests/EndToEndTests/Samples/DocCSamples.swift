import BmobSDK
import Foundation
import Testing

// The samples of the BmobSDK documentation catalog (Sources/BmobSDK/BmobSDK.docc), compiled as written where they
// run as is (addresses, keys and file paths substituted).

extension EndToEnd {
    @Suite("DocC samples: Users and ACL, Files, Private cloud")
    @MainActor
    struct DocCSamples {
        @Test("Users and ACL: sign up, log in, a private note with an ACL, a role")
        func usersAndACL() async throws {
            _ = try await SDKFixture.server()
            let username = "docc" + String(UUID().uuidString.prefix(8)).lowercased()

            let user = BmobUser()
            user.username = username
            user.password = "password"
            user.email = "\(username)@example.com"
            try await user.signUp()

            let signedIn = try await BmobUser.login(account: username, password: "password")
            #expect(BmobUser.current?.objectId == signedIn.objectId)

            let note = BmobObject(className: "Note")
            note["title"] = "Private note"

            let acl = BmobACL()
            acl.setReadAccess(enabled: true, forUserId: BmobUser.current?.objectId ?? "")
            acl.setWriteAccess(enabled: true, forUserId: BmobUser.current?.objectId ?? "")
            acl.setReadAccess(enabled: true, forRoleName: "Admin")
            note.acl = acl
            try await note.save()

            let admins = BmobRole(name: "Admin" + username)
            admins.addUsers([user])
            try await admins.save()
            #expect(admins.objectId != nil)

            let mine = try await BmobQuery(className: "Note").get(objectId: try #require(note.objectId))
            #expect(mine["title"] as? String == "Private note")
            BmobUser.logout()
            await #expect(throws: BmobError.self) {
                _ = try await BmobQuery(className: "Note").get(objectId: try #require(note.objectId))
            }
        }

        @Test("Files: upload data with progress, then delete it by URL")
        func files() async throws {
            _ = try await SDKFixture.server()
            let avatar = BmobFile(data: Data("avatar bytes".utf8), filename: "avatar.png")
            let progress = ValueLog<Double>()
            try await avatar.upload { value in progress.append(value) }
            #expect(progress.values.last == 1.0)
            let url = try #require(avatar.url)

            let post = BmobObject(className: "Post")
            post["image"] = avatar.fileDict(filename: avatar.filename)
            try await post.save()

            try await BmobFile(url: url, cdn: avatar.cdn)?.delete()
        }

        @Test("Private cloud: serverInfo names the server's release, which is the SDK's")
        func privateCloud() async throws {
            _ = try await SDKFixture.server()
            let info = try await Bmob.serverInfo()
            #expect(info.version == Bmob.sdkVersion)
            #expect(info.supports("history"))
        }
    }
}
