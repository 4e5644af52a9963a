import BmobServer
import BmobTesting
import BmobWire
import Foundation
import Testing

@Suite("REST SMS codes: request, verify, query, expiry, single use, rate limits")
struct SmsCodeRoutesTests {
    private func bmobCode(_ response: RawHTTPResponse) -> Int64? { response.json?["code"]?.int64Value }

    @Test("requestSmsCode answers smsId and writes a 6-digit code to the outbox; both verify forms accept it once")
    func requestAndVerify() async throws {
        try await withVerificationServer { server, _ in
            let phone = uniquePhone()
            let first = try await server.call(
                "POST", "/1/requestSmsCode", json: ["mobilePhoneNumber": .string(phone), "template": ""])
            #expect(first.status == 200)
            let smsId = try #require(first.json?["smsId"]?.int64Value)
            #expect(first.json?.objectValue?.count == 1)

            let record = try #require(try server.outbox().last)
            #expect(record["kind"] == "sms")
            #expect(record["to"]?.stringValue == phone)
            let code = try #require(record["code"]?.stringValue)
            #expect(code.count == 6 && code.allSatisfy(\.isNumber))
            #expect(record["body"]?.stringValue?.contains(code) == true)
            #expect(record["time"]?.stringValue == "2027-01-15 08:00:00")

            // The path form.
            let verified = try await server.call(
                "POST", "/1/verifySmsCode/\(code)", json: ["mobilePhoneNumber": .string(phone)])
            #expect(verified.status == 200)
            #expect(verified.json == ["msg": "ok"])
            // Used once: the same code again is 207, in either form.
            let again = try await server.call(
                "POST", "/1/verifySmsCode", json: ["mobilePhoneNumber": .string(phone), "smsCode": .string(code)])
            #expect(again.status == 400)
            #expect(bmobCode(again) == 207)

            let status = try await server.call("GET", "/1/querySms/\(smsId)")
            #expect(status.json == ["sms_state": "SUCCESS", "verify_state": true])
        }
    }

    @Test("the body form verifies; a wrong code, another number's code and a code after 5 minutes are 207")
    func wrongAndExpired() async throws {
        try await withVerificationServer { server, clock in
            let phone = uniquePhone()
            let other = uniquePhone()
            let code = try await server.smsCode(for: phone)
            let otherCode = try await server.smsCode(for: other)
            let wrong = code == "000000" ? "000001" : "000000"
            for (number, attempt) in [(phone, wrong), (phone, otherCode), (phone, "12345"), (phone, "abcdef")] {
                let response = try await server.call(
                    "POST", "/1/verifySmsCode",
                    json: ["mobilePhoneNumber": .string(number), "smsCode": .string(attempt)])
                #expect(bmobCode(response) == 207, "\(attempt): \(response.text)")
                #expect(response.json?["error"]?.stringValue?.isEmpty == false)
            }
            let accepted = try await server.call(
                "POST", "/1/verifySmsCode", json: ["mobilePhoneNumber": .string(phone), "smsCode": .string(code)])
            #expect(accepted.json == ["msg": "ok"])

            // 5 minutes later the other number's code is expired.
            clock.advance(milliseconds: 5 * 60_000)
            let expired = try await server.call(
                "POST", "/1/verifySmsCode/\(otherCode)", json: ["mobilePhoneNumber": .string(other)])
            #expect(bmobCode(expired) == 207)
            let status = try await server.call("GET", "/1/querySms/1")
            #expect(status.json?["sms_state"] == "SUCCESS")
        }
    }

    @Test("a code just before 5 minutes still works")
    func validUntilExpiry() async throws {
        try await withVerificationServer { server, clock in
            let phone = uniquePhone()
            let code = try await server.smsCode(for: phone)
            clock.advance(milliseconds: 5 * 60_000 - 1)
            let response = try await server.call(
                "POST", "/1/verifySmsCode/\(code)", json: ["mobilePhoneNumber": .string(phone)])
            #expect(response.json == ["msg": "ok"])
        }
    }

    @Test("5 wrong codes for a number make its valid code useless")
    func wrongCodesBurnTheCode() async throws {
        try await withVerificationServer { server, _ in
            let phone = uniquePhone()
            let code = try await server.smsCode(for: phone)
            let wrong = code == "000000" ? "000001" : "000000"
            for _ in 0..<5 {
                let response = try await server.call(
                    "POST", "/1/verifySmsCode/\(wrong)", json: ["mobilePhoneNumber": .string(phone)])
                #expect(bmobCode(response) == 207)
            }
            let right = try await server.call(
                "POST", "/1/verifySmsCode/\(code)", json: ["mobilePhoneNumber": .string(phone)])
            #expect(bmobCode(right) == 207)
        }
    }

    @Test("per number: 1 code a minute, 5 an hour, 10 a day (10010); other numbers are not affected")
    func rateLimits() async throws {
        try await withVerificationServer { server, clock in
            let phone = uniquePhone()
            func request(_ number: String) async throws -> RawHTTPResponse {
                try await server.call("POST", "/1/requestSmsCode", json: ["mobilePhoneNumber": .string(number)])
            }
            #expect(try await request(phone).status == 200)
            let tooSoon = try await request(phone)
            #expect(tooSoon.status == 400)
            #expect(bmobCode(tooSoon) == 10010)
            #expect(tooSoon.json?["error"]?.stringValue?.contains("1 code a minute") == true)
            #expect(try await request(uniquePhone()).status == 200)

            // One a minute up to 5 in the hour.
            for _ in 0..<4 {
                clock.advance(milliseconds: 60_000)
                #expect(try await request(phone).status == 200)
            }
            clock.advance(milliseconds: 60_000)
            let hourly = try await request(phone)
            #expect(bmobCode(hourly) == 10010)
            #expect(hourly.json?["error"]?.stringValue?.contains("5 codes a hour") == true)

            // The next hour: 5 more, then the day's limit of 10.
            clock.advance(milliseconds: 3_600_000)
            for _ in 0..<5 {
                #expect(try await request(phone).status == 200)
                clock.advance(milliseconds: 60_000)
            }
            clock.advance(milliseconds: 3_600_000)
            let daily = try await request(phone)
            #expect(bmobCode(daily) == 10010)
            #expect(daily.json?["error"]?.stringValue?.contains("10 codes a day") == true)

            // A day after the first code, one more is allowed.
            clock.advance(milliseconds: 86_400_000 - 2 * 3_600_000 - 10 * 60_000)
            #expect(try await request(phone).status == 200)
            let codes = try server.outbox().filter { $0["to"]?.stringValue == phone }
            #expect(codes.count == 11)
        }
    }

    @Test("missing number 118, malformed number 301, mistyped 111, unknown smsId 101")
    func validation() async throws {
        try await withVerificationServer { server, _ in
            let cases: [(JSONValue, Int64)] = [
                ([:], 118), (["mobilePhoneNumber": ""], 118), (["mobilePhoneNumber": "12ab"], 301),
                (["mobilePhoneNumber": "123"], 301), (["mobilePhoneNumber": 13_800_138_000], 111),
            ]
            for (body, expected) in cases {
                let response = try await server.call("POST", "/1/requestSmsCode", json: body)
                #expect(response.status == 400)
                #expect(bmobCode(response) == expected, "\(body): \(response.text)")
            }
            let noCode = try await server.call("POST", "/1/verifySmsCode", json: ["mobilePhoneNumber": "13800138000"])
            #expect(bmobCode(noCode) == 118)
            #expect(bmobCode(try await server.call("GET", "/1/querySms/999")) == 101)
            #expect(bmobCode(try await server.call("GET", "/1/querySms/abc")) == 101)
            #expect(try server.outbox().isEmpty)
        }
    }

    @Test("a failing provider: 500, the code is FAIL and unusable; the next request after a minute works")
    func providerFailure() async throws {
        let recorder = RecordingMessageProvider()
        try await withVerificationServer(providers: MessageProviders(sms: recorder, mail: recorder)) { server, clock in
            let phone = uniquePhone()
            recorder.isFailing = true
            let failed = try await server.call("POST", "/1/requestSmsCode", json: ["mobilePhoneNumber": .string(phone)])
            #expect(failed.status == 500)
            #expect(bmobCode(failed) == 500)
            #expect(try await server.call("GET", "/1/querySms/1").json == ["sms_state": "FAIL", "verify_state": false])
            #expect(recorder.messages.isEmpty)
            #expect(try server.outbox().isEmpty)

            recorder.isFailing = false
            clock.advance(milliseconds: 60_000)
            let sent = try await server.call("POST", "/1/requestSmsCode", json: ["mobilePhoneNumber": .string(phone)])
            #expect(sent.json == ["smsId": 2])
            let message = try #require(recorder.messages.last)
            #expect(message.kind == "sms" && message.to == phone && message.applicationId == TestServer.applicationId)
            let code = try #require(message.code)
            #expect(
                try await server.call("GET", "/1/querySms/2").json == ["sms_state": "SUCCESS", "verify_state": false])
            let verified = try await server.call(
                "POST", "/1/verifySmsCode/\(code)", json: ["mobilePhoneNumber": .string(phone)])
            #expect(verified.json == ["msg": "ok"])
        }
    }
}
