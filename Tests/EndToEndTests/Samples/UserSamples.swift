import BmobSDK
import BmobWire
import Foundation
import Testing

// The seed's 用户管理 section: the samples that need only accounts and sessions, compiled as written (phone
// numbers and passwords as in the seed; each test uses its own username). SMS, email verification and
// third-party login samples come with those features.

extension EndToEnd {
    @Suite("Seed samples: 用户管理")
    @MainActor
    struct UserSamples {
        /// A unique suffix so that runs and tests do not collide on usernames.
        private static func unique() -> String { String(UUID().uuidString.prefix(8)).lowercased() }

        @Test("创建用户, 用户登录, 获取当前用户")
        func signUpAndLogin() async throws {
            _ = try await SDKFixture.server()
            let name = "testuser" + Self.unique()
            let email = "\(name)@example.com"
            let phone = "138" + String(Int.random(in: 10_000_000...99_999_999))

            let user = BmobUser()
            user.username = name
            user.password = "password123"
            user.email = email
            user.mobilePhoneNumber = phone

            try await user.signUp()
            #expect(user.objectId != nil)
            #expect(user.sessionToken != nil)
            #expect(user.password == nil)
            #expect(BmobUser.current?.objectId == user.objectId)

            do {
                // 用户名密码登录
                let user = try await BmobUser.login(username: name, password: "password123")
                #expect(user.username == name)
            }
            do {
                // 邮箱登录
                let user = try await BmobUser.login(account: email, password: "password123")
                #expect(user.email == email)
            }
            await #expect {
                _ = try await BmobUser.login(username: name, password: "wrong")
            } throws: { error in
                guard case BmobError.authenticationFailed = error else { return false }
                return true
            }

            // 恢复本地缓存的用户
            await BmobUser.restoreCurrent()

            var printed: [String] = []
            if let currentUser = BmobUser.current {
                print("用户名: \(currentUser.username ?? "")")
                print("手机号: \(currentUser.mobilePhoneNumber ?? "")")
                print("Session: \(currentUser.sessionToken ?? "")")
                printed = [currentUser.username ?? "", currentUser.mobilePhoneNumber ?? "", currentUser.sessionToken ?? ""]
            }
            #expect(printed.count == 3 && printed[0] == name && printed[1] == phone && !printed[2].isEmpty)
            let stored = try #require(try await SDKFixture.restObject("_User", user.objectId ?? ""))
            #expect(stored["username"] == .string(name))
            #expect(stored["password"] == nil)
        }

        @Test("检查用户会话是否有效: instance and explicit checks")
        func checkSession() async throws {
            _ = try await SDKFixture.server()
            let name = "session" + Self.unique()
            let signed = BmobUser()
            signed.username = name
            signed.password = "pw"
            try await signed.signUp()

            await BmobUser.restoreCurrent()
            var result: Bool?
            if let user = BmobUser.current {
                do {
                    let valid = try await user.checkSession()
                    print(valid ? "会话有效" : "会话失效或缺少本地登录信息")
                    result = valid
                } catch {
                    print("检查失败：\(error)") // 断网、服务端或协议错误，不应直接判断为过期
                }
            }
            #expect(result == true)

            // 检查指定用户与 token，不改变当前登录用户或全局 token
            let valid = try await BmobUser.checkSession(
                objectId: signed.objectId ?? "", sessionToken: signed.sessionToken ?? ""
            )
            #expect(valid)
            #expect(try await BmobUser.checkSession(objectId: signed.objectId ?? "", sessionToken: "bogus") == false)
            await #expect(throws: BmobError.self) { _ = try await BmobUser.checkSession(objectId: "", sessionToken: "x") }
            #expect(try await BmobUser().checkSession() == false)
            #expect(BmobUser.current?.objectId == signed.objectId)
        }

        @Test("登出 and 服务端退出登录")
        func logout() async throws {
            _ = try await SDKFixture.server()
            let user = BmobUser()
            user.username = "logout" + Self.unique()
            user.password = "pw"
            try await user.signUp()
            let objectId = try #require(user.objectId)
            let token = try #require(user.sessionToken)

            BmobUser.logout()
            #expect(BmobUser.current == nil)
            await BmobUser.restoreCurrent()
            #expect(BmobUser.current == nil)
            // Local logout leaves the server session valid.
            #expect(try await BmobUser.checkSession(objectId: objectId, sessionToken: token))

            _ = try await BmobUser.login(username: user.username ?? "", password: "pw")
            var outcome = ""
            do {
                try await BmobUser.logoutFromServer()
                // 服务端退出成功，本地登录信息已清理
                outcome = "ok"
            } catch {
                print("退出失败：\(error)") // 保留登录状态，可重试
            }
            #expect(outcome == "ok")
            #expect(BmobUser.current == nil)
            await #expect {
                try await BmobUser.logoutFromServer()
            } throws: { error in
                guard case BmobError.authenticationFailed = error else { return false }
                return true
            }

            // 显式退出指定用户会话，需要该用户的有效 token
            try await BmobUser.logout(objectId: objectId, sessionToken: token)
            #expect(try await BmobUser.checkSession(objectId: objectId, sessionToken: token) == false)
            await #expect(throws: BmobError.self) { try await BmobUser.logout(objectId: objectId, sessionToken: "") }
        }

        @Test("更新用户信息 and 修改密码")
        func updateAndPassword() async throws {
            _ = try await SDKFixture.server()
            let name = "update" + Self.unique()
            let signed = BmobUser()
            signed.username = name
            signed.password = "old123"
            try await signed.signUp()

            if let user = BmobUser.current {
                user["nickname"] = "新昵称"
                user["avatar"] = "https://example.com/avatar.jpg"
                try await user.update()
            }
            let stored = try #require(try await SDKFixture.restObject("_User", signed.objectId ?? ""))
            #expect(stored["nickname"] == "新昵称")
            #expect(stored["avatar"] == "https://example.com/avatar.jpg")

            if let user = BmobUser.current {
                try await user.updatePassword(oldPassword: "old123", newPassword: "new123")
            }
            #expect(try await BmobUser.current?.checkSession() == true)
            _ = try await BmobUser.login(username: name, password: "new123")
            await #expect {
                try await BmobUser.current?.updatePassword(oldPassword: "wrong", newPassword: "x")
            } throws: { error in
                guard case BmobError.serverError(210, _) = error else { return false }
                return true
            }
        }

        @Test("ACL 与安全: an ACL for the current user is stored with the object")
        func aclSamples() async throws {
            _ = try await SDKFixture.server()
            let owner = BmobUser()
            owner.username = "acl" + Self.unique()
            owner.password = "pw"
            try await owner.signUp()

            let note = BmobObject(className: "Note")
            note["title"] = "私有笔记"
            note["content"] = "只有我自己能看"

            // 创建 ACL：默认禁止读写
            let acl = BmobACL()
            acl.setReadAccess(enabled: true, forUserId: BmobUser.current?.objectId ?? "")
            acl.setWriteAccess(enabled: true, forUserId: BmobUser.current?.objectId ?? "")

            note.acl = acl
            try await note.save()

            do {
                let acl = BmobACL()
                acl.setReadAccess(enabled: true, forRole: .public)  // 所有人可读
                acl.setWriteAccess(enabled: true, forUserId: BmobUser.current?.objectId ?? "")

                note.acl = acl
                #expect(acl.readAccess(for: "*"))
            }
            do {
                let acl = BmobACL()
                acl.setReadAccess(enabled: true, forRole: .public)
                acl.setReadAccess(enabled: true, forRoleName: "Admin")  // Admin 角色可读
                acl.setWriteAccess(enabled: true, forRoleName: "Admin") // Admin 角色可写

                note.acl = acl
                #expect(acl.writeAccess(for: "role:Admin"))
            }
            let stored = try #require(try await SDKFixture.restObject("Note", note.objectId ?? ""))
            let ownerId = try #require(owner.objectId)
            #expect(stored["ACL"] == .object([ownerId: ["read": true, "write": true]]))
            try await note.save()
            let updated = try #require(try await SDKFixture.restObject("Note", note.objectId ?? ""))
            #expect(updated["ACL"] == ["*": ["read": true], "role:Admin": ["read": true, "write": true]])
        }
    }
}

extension EndToEnd {
    @Suite("Seed samples: 第三方登录")
    @MainActor
    struct ThirdPartySamples {
        @Test("login with authData, link another platform, unlink; the same openid logs into the same user")
        func thirdParty() async throws {
            _ = try await SDKFixture.server()
            let openid = "wechat_openid_" + String(UUID().uuidString.prefix(8))
            // 微信登录示例
            let authData: [String: Any] = [
                "openid": openid,
                "access_token": "wechat_access_token",
                "expires_in": 7200
            ]

            let user = try await BmobUser.login(platform: .wechat, authData: authData)
            #expect(user.objectId != nil && user.sessionToken != nil)
            #expect(BmobUser.current?.objectId == user.objectId)

            let again = try await BmobUser.login(platform: .wechat, authData: authData)
            #expect(again.objectId == user.objectId)

            // 绑定第三方账号
            let qqData: [String: Any] = ["openid": "qq_" + openid, "access_token": "t"]
            try await user.link(platform: .qq, authData: qqData)
            let viaQQ = try await BmobUser.login(platform: .qq, authData: qqData)
            #expect(viaQQ.objectId == user.objectId)

            // 解绑
            try await user.unlink(platform: .wechat)
            let stored = try #require(try await SDKFixture.restObject("_User", user.objectId ?? ""))
            #expect(stored["authData"]?["weixin"] == nil)
            // Only the linked id is kept: the access token proved it and is not stored.
            #expect(stored["authData"]?["qq"] == ["id": .string("qq_" + openid)])
            // Logging in with the unlinked account now makes a new user.
            let fresh = try await BmobUser.login(platform: .wechat, authData: authData)
            #expect(fresh.objectId != user.objectId)
            // …which cannot take over the QQ account linked to the first one.
            await #expect {
                try await fresh.link(platform: .qq, authData: qqData)
            } throws: { error in
                guard case BmobError.serverError(208, _) = error else { return false }
                return true
            }
        }
    }
}

extension EndToEnd {
    @Suite("Roles from the SDK")
    @MainActor
    struct RoleTests {
        @Test("a role made in the SDK grants its members what an ACL gives the role")
        func roleGrantsAccess() async throws {
            _ = try await SDKFixture.server()
            let suffix = String(UUID().uuidString.prefix(8)).lowercased()
            let outsider = BmobUser()
            outsider.username = "outsider" + suffix
            outsider.password = "pw"
            try await outsider.signUp()
            let member = BmobUser()
            member.username = "member" + suffix
            member.password = "pw"
            try await member.signUp()

            let role = BmobRole(name: "Editors" + suffix)
            role.addUsers([member])
            let roleACL = BmobACL()
            roleACL.setReadAccess(enabled: true, forRole: .public)
            roleACL.setWriteAccess(enabled: true, forUserId: member.objectId ?? "")
            role.acl = roleACL
            try await role.save()
            #expect(role.objectId != nil)

            let note = BmobObject(className: "Note")
            note["title"] = "editors only " + suffix
            let acl = BmobACL()
            acl.setReadAccess(enabled: true, forRoleName: "Editors" + suffix)
            note.acl = acl
            try await note.save()

            let query = BmobQuery(className: "Note").whereKey("title", equalTo: "editors only " + suffix)
            // The member (current user) sees it…
            #expect(try await query.find().count == 1)
            // …the outsider does not, nor does anyone without a session.
            _ = try await BmobUser.login(username: outsider.username ?? "", password: "pw")
            #expect(try await query.find().isEmpty)
            BmobUser.logout()
            #expect(try await query.find().isEmpty)
            await #expect(throws: BmobError.self) { _ = try await query.get(objectId: note.objectId ?? "") }
            #expect(role.name == "Editors" + suffix)
        }
    }
}
