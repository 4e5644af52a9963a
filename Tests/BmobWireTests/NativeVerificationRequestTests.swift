import BmobWire
import Testing

/// ``NativeRequest`` for the SMS, phone-login and email routes: fields in `data` or at the top level.
@Suite struct NativeVerificationRequestTests {
    private func call(_ route: NativeRoute, _ body: JSONValue) throws -> NativeCall {
        try NativeRequest.decode(route: route, members: body.objectValue ?? [:]).call
    }

    @Test func smsRoutesReadDataOrTopLevel() throws {
        #expect(
            try call(.requestSmsCode, ["mobilePhoneNumber": "13800138000"])
                == .requestSmsCode(mobilePhoneNumber: "13800138000", template: nil))
        #expect(
            try call(.requestSmsCode, ["mobilePhoneNumber": "1", "data": ["mobilePhoneNumber": "2", "template": "t"]])
                == .requestSmsCode(mobilePhoneNumber: "2", template: "t"))
        // Python clients send an empty template.
        #expect(
            try call(.requestSmsCode, ["data": ["template": ""]])
                == .requestSmsCode(mobilePhoneNumber: nil, template: nil))
        #expect(
            try call(.verifySmsCode, ["mobilePhoneNumber": "1", "smsCode": "123456"])
                == .verifySmsCode(mobilePhoneNumber: "1", smsCode: "123456"))
        #expect(try call(.querySms, ["smsId": "42"]) == .querySms(smsId: 42))
        #expect(try call(.querySms, ["data": ["smsId": 7]]) == .querySms(smsId: 7))
        #expect(try call(.querySms, ["smsId": 7.0]) == .querySms(smsId: 7))
        for bad: JSONValue in [[:], ["smsId": "x"], ["smsId": 1.5], ["smsId": true]] {
            #expect(throws: BmobRequestError(.missingParameter, "smsId (a whole number) is required")) {
                try call(.querySms, bad)
            }
        }
        #expect(throws: BmobRequestError.self) { try call(.requestSmsCode, ["mobilePhoneNumber": 138]) }
    }

    @Test func phoneLoginOnLoginSignupAndLoginOrSignup() throws {
        let data: JSONValue = ["mobilePhoneNumber": "13800138000", "smsCode": "123456", "nickname": "n"]
        let fields = data.objectValue ?? [:]
        #expect(
            try call(.logInOrSignUp, ["c": "_User", "data": data])
                == .logInWithSmsCode(
                    mobilePhoneNumber: "13800138000", smsCode: "123456", fields: fields, allowSignUp: true))
        #expect(
            try call(.logIn, ["c": "_User", "data": data])
                == .logInWithSmsCode(
                    mobilePhoneNumber: "13800138000", smsCode: "123456", fields: fields, allowSignUp: false))
        #expect(
            try call(.signUp, ["c": "_User", "data": data])
                == .logInWithSmsCode(
                    mobilePhoneNumber: "13800138000", smsCode: "123456", fields: fields, allowSignUp: true))
        // Without smsCode, login and signup are what they were.
        #expect(try call(.logIn, ["data": ["username": "a", "password": "b"]]) == .logIn(account: "a", password: "b"))
        #expect(
            try call(.signUp, ["data": ["username": "a", "smsCode": nil]])
                == .signUp(fields: ["username": "a", "smsCode": nil]))
        #expect(
            try call(.logInOrSignUp, [:])
                == .logInWithSmsCode(mobilePhoneNumber: nil, smsCode: nil, fields: [:], allowSignUp: true))
    }

    @Test func resetsAndEmail() throws {
        #expect(try call(.reset, ["data": ["email": "a@example.com"]]) == .requestPasswordReset(email: "a@example.com"))
        #expect(
            try call(.reset, ["data": ["smsCode": "123456", "password": "p"]])
                == .resetPasswordBySmsCode(smsCode: "123456", password: "p", mobilePhoneNumber: nil))
        #expect(
            try call(
                .phoneReset, ["data": ["smsCode": "1", "password": "p", "mobilePhoneNumber": "2", "email": "x@y.z"]])
                == .resetPasswordBySmsCode(smsCode: "1", password: "p", mobilePhoneNumber: "2"))
        #expect(
            try call(.emailVerify, ["data": ["email": "a@example.com"]]) == .requestEmailVerify(email: "a@example.com"))
        #expect(try call(.emailVerify, [:]) == .requestEmailVerify(email: nil))
    }

    @Test func routeNames() {
        let names = [
            "request_sms_code", "verify_sms_code", "query_sms", "login_or_signup", "reset", "phone_reset",
            "email_verify",
        ]
        for name in names {
            #expect(NativeRoute(rawValue: name) != nil, "\(name)")
        }
    }
}
