import BmobSDK
import BmobTesting
import BmobWire
import Foundation
import Testing

// The seed's 用户管理 samples for 短信相关 (request a code, 一键注册登录, 短信重置密码),
// 手机号验证码登录 and 邮箱验证, compiled as written. Phone numbers and addresses are unique per
// test (the server sends one code a minute per number); the codes and links are read from the
// server's development outbox.

extension EndToEnd {
    @Suite("Seed samples: 短信相关, 手机号验证码登录, 邮箱验证")
    @MainActor
    struct SMSSamples {
        private static func uniquePhone() -> String { "137" + String(Int.random(in: 10_000_000...99_999_999)) }
        private static func unique() -> String { String(UUID().uuidString.prefix(8)).lowercased() }

        /// The newest code the server texted to `phone`.
        private static func code(for phone: String) async throws -> String {
            let code = try await SDKFixture.server().latestSmsCode(for: phone)
            return try #require(code)
        }

        @Test("请求短信验证码, 手机号一键注册登录")
        func requestCodeAndSignUpOrLogin() async throws {
            _ = try await SDKFixture.server()
            let phone = Self.uniquePhone()

            // 请求短信验证码
            try await BmobSMS.requestSmsCode(mobilePhoneNumber: phone)

            let smsCode = try await Self.code(for: phone)
            // 手机号一键注册登录
            let user = try await BmobUser.signUpOrLogin(mobilePhoneNumber: phone, smsCode: smsCode)
            #expect(user.objectId != nil && user.sessionToken != nil)
            #expect(user.username == phone && user.mobilePhoneNumber == phone)
            #expect(user.bool(forKey: "mobilePhoneVerified") == true)
            #expect(BmobUser.current?.objectId == user.objectId)
            #expect(try await user.checkSession())

            // The code is used up; a wrong code is an authentication failure, and a second request within the
            // minute is refused with 10010.
            await #expect {
                _ = try await BmobUser.signUpOrLogin(mobilePhoneNumber: phone, smsCode: smsCode)
            } throws: { error in
                guard case BmobError.authenticationFailed = error else { return false }
                return true
            }
            await #expect {
                try await BmobSMS.requestSmsCode(mobilePhoneNumber: phone)
            } throws: { error in
                guard case BmobError.serverError(10010, _) = error else { return false }
                return true
            }
            await #expect(throws: BmobError.self) { try await BmobSMS.requestSmsCode(mobilePhoneNumber: "") }
        }

        @Test("手机号验证码登录")
        func loginWithSmsCode() async throws {
            _ = try await SDKFixture.server()
            let phone = Self.uniquePhone()
            let signedUp = BmobUser()
            signedUp.username = "phone" + Self.unique()
            signedUp.password = "password123"
            signedUp.mobilePhoneNumber = phone
            try await signedUp.signUp()
            BmobUser.logout()

            try await BmobSMS.requestSmsCode(mobilePhoneNumber: phone)
            let smsCode = try await Self.code(for: phone)
            // 手机号验证码登录
            let user = try await BmobUser.login(mobilePhoneNumber: phone, smsCode: smsCode)
            #expect(user.objectId == signedUp.objectId)
            #expect(BmobUser.current?.mobilePhoneNumber == phone)

            // A number no user has: login never signs up.
            let stranger = Self.uniquePhone()
            try await BmobSMS.requestSmsCode(mobilePhoneNumber: stranger)
            let strangerCode = try await Self.code(for: stranger)
            await #expect {
                _ = try await BmobUser.login(mobilePhoneNumber: stranger, smsCode: strangerCode)
            } throws: { error in
                guard case BmobError.authenticationFailed = error else { return false }
                return true
            }
            // The code is still good for checking by hand.
            try await BmobSMS.verifySmsCode(mobilePhoneNumber: stranger, smsCode: strangerCode)
        }

        @Test("短信重置密码")
        func resetPasswordWithSmsCode() async throws {
            _ = try await SDKFixture.server()
            let phone = Self.uniquePhone()
            let name = "reset" + Self.unique()
            let signedUp = BmobUser()
            signedUp.username = name
            signedUp.password = "password123"
            signedUp.mobilePhoneNumber = phone
            try await signedUp.signUp()

            try await BmobSMS.requestSmsCode(mobilePhoneNumber: phone)
            let smsCode = try await Self.code(for: phone)
            // 短信重置密码
            try await BmobUser.resetPassword(smsCode: smsCode, newPassword: "newPassword")

            // Every session ended; the new password logs in, the old one does not.
            #expect(
                try await BmobUser.checkSession(
                    objectId: signedUp.objectId ?? "", sessionToken: signedUp.sessionToken ?? "") == false)
            let user = try await BmobUser.login(username: name, password: "newPassword")
            #expect(user.objectId == signedUp.objectId)
            await #expect {
                _ = try await BmobUser.login(username: name, password: "password123")
            } throws: { error in
                guard case BmobError.authenticationFailed = error else { return false }
                return true
            }
            // A used code keeps Bmob's 207.
            await #expect {
                try await BmobUser.resetPassword(smsCode: smsCode, newPassword: "again")
            } throws: { error in
                guard case BmobError.serverError(207, _) = error else { return false }
                return true
            }

            // Without a current user the code alone names the number; the explicit overload sends it.
            let other = Self.uniquePhone()
            let otherUser = BmobUser()
            otherUser.username = "reset" + Self.unique()
            otherUser.password = "first"
            otherUser.mobilePhoneNumber = other
            try await otherUser.signUp()
            BmobUser.logout()
            try await BmobSMS.requestSmsCode(mobilePhoneNumber: other)
            try await BmobUser.resetPassword(
                mobilePhoneNumber: other, smsCode: try await Self.code(for: other), newPassword: "second")
            #expect(
                try await BmobUser.login(username: otherUser.username ?? "", password: "second").objectId
                    == otherUser.objectId)
        }

        @Test("请求邮箱验证, 检查邮箱是否已验证")
        func emailVerification() async throws {
            let server = try await SDKFixture.server()
            let email = "verify\(Self.unique())@example.com"
            let signedUp = BmobUser()
            signedUp.username = "mail" + Self.unique()
            signedUp.password = "password123"
            signedUp.email = email
            try await signedUp.signUp()
            #expect(BmobUser.current?.emailVerified == false)

            // 请求邮箱验证
            try await BmobUser.requestEmailVerify(email)

            // The user opens the mailed link.
            let link = try #require(try server.latestEmailLink(to: email))
            let opened = try await server.request(
                "GET", String(link.dropFirst(server.baseURL.count)), headers: [("Accept", "text/html")])
            #expect(opened.status == 200)
            _ = try await BmobUser.login(username: signedUp.username ?? "", password: "password123")

            // 检查邮箱是否已验证
            var printed = false
            if let user = BmobUser.current {
                if user.emailVerified {
                    print("邮箱已验证")
                    printed = true
                }
            }
            #expect(printed)

            // An unknown address is answered as a known one (the server hides who has an account), mailing nothing.
            let nobody = "nobody\(Self.unique())@example.com"
            try await BmobUser.requestEmailVerify(nobody)
            #expect(try server.latestEmailLink(to: nobody) == nil)
        }

        @Test("邮箱重置密码: the mailed link's form sets the password")
        func passwordResetByEmail() async throws {
            let server = try await SDKFixture.server()
            let email = "reset\(Self.unique())@example.com"
            let signedUp = BmobUser()
            signedUp.username = "mailreset" + Self.unique()
            signedUp.password = "old"
            signedUp.email = email
            try await signedUp.signUp()

            try await BmobUser.requestPasswordReset(email: email)
            let link = try #require(try server.latestEmailLink(to: email))
            let path = String(link.dropFirst(server.baseURL.count))
            let posted = try await server.request(
                "POST", path, headers: [("Content-Type", "application/x-www-form-urlencoded")],
                body: Array("password=fresh&confirm=fresh".utf8))
            #expect(posted.status == 200)
            let user = try await BmobUser.login(account: email, password: "fresh")
            #expect(user.objectId == signedUp.objectId)
        }
    }
}
