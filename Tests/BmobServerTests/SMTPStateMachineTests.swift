import BmobCrypto
import BmobServer
import BmobWire
import Foundation
import Testing

@Suite("SMTP client state machine and message")
struct SMTPStateMachineTests {
    private func text(_ action: SMTPStateMachine.Action) -> String? {
        guard case .send(let bytes) = action else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test("the whole dialog with AUTH PLAIN, replies split across reads and multi-line")
    func dialog() {
        var machine = SMTPStateMachine(
            clientName: "bmob-server", sender: "app@example.com", recipient: "user@example.com",
            message: Array("Subject: x\r\n\r\n.hidden\r\nbody".utf8), username: "app", password: "pw")
        #expect(machine.bytesReceived(Array("220 mail.example.com ES".utf8)) == .readMore)
        #expect(text(machine.bytesReceived(Array("MTP\r\n".utf8))) == "EHLO bmob-server\r\n")
        #expect(machine.bytesReceived(Array("250-mail.example.com\r\n250-AUTH LOGIN PLAIN\r\n".utf8)) == .readMore)
        let auth = text(machine.bytesReceived(Array("250 8BITMIME\r\n".utf8)))
        #expect(auth == "AUTH PLAIN \(Base64.encodeString(Array("\0app\0pw".utf8)))\r\n")
        #expect(text(machine.bytesReceived(Array("235 2.7.0 ok\r\n".utf8))) == "MAIL FROM:<app@example.com>\r\n")
        #expect(text(machine.bytesReceived(Array("250 ok\r\n".utf8))) == "RCPT TO:<user@example.com>\r\n")
        #expect(text(machine.bytesReceived(Array("250 ok\r\n".utf8))) == "DATA\r\n")
        #expect(
            text(machine.bytesReceived(Array("354 go\r\n".utf8))) == "Subject: x\r\n\r\n..hidden\r\nbody\r\n.\r\n")
        #expect(text(machine.bytesReceived(Array("250 queued\n".utf8))) == "QUIT\r\n")
        #expect(machine.bytesReceived(Array("221 bye\r\n".utf8)) == .finished)
    }

    @Test("without credentials no AUTH; refusals and nonsense fail with the reply code")
    func failures() {
        func machine(username: String? = nil) -> SMTPStateMachine {
            SMTPStateMachine(
                clientName: "c", sender: "a@b.c", recipient: "d@e.f", message: [], username: username,
                password: username == nil ? nil : "pw")
        }
        var plain = machine()
        _ = plain.bytesReceived(Array("220 hi\r\n".utf8))
        #expect(text(plain.bytesReceived(Array("250 hello\r\n".utf8))) == "MAIL FROM:<a@b.c>\r\n")
        #expect(
            plain.bytesReceived(Array("550 no such sender\r\n".utf8))
                == .failed(SMTPError("MAIL FROM refused: no such sender", replyCode: 550)))

        var noAuth = machine(username: "u")
        _ = noAuth.bytesReceived(Array("220 hi\r\n".utf8))
        guard case .failed(let error) = noAuth.bytesReceived(Array("250-hello\r\n250 STARTTLS\r\n".utf8)) else {
            Issue.record("expected a failure")
            return
        }
        #expect(error.message.contains("AUTH PLAIN"))

        var badAuth = machine(username: "u")
        _ = badAuth.bytesReceived(Array("220 hi\r\n".utf8))
        _ = badAuth.bytesReceived(Array("250-hello\r\n250 AUTH PLAIN\r\n".utf8))
        #expect(badAuth.bytesReceived(Array("535 bad credentials\r\n".utf8)).failureCode == 535)

        var refused = machine()
        #expect(refused.bytesReceived(Array("554 go away\r\n".utf8)).failureCode == 554)
        var nonsense = machine()
        #expect(nonsense.bytesReceived(Array("HTTP/1.1 400\r\n".utf8)).failureCode == nil)
        #expect(nonsense.bytesReceived(Array("HTTP/1.1 400\r\n".utf8)) != .readMore)
    }

    @Test("messages: headers, encoded subjects, a base64 body with CRLF line ends, RFC 5322 dates")
    func message() throws {
        #expect(SMTPMessage.date(milliseconds: 0) == "Thu, 1 Jan 1970 00:00:00 +0000")
        #expect(SMTPMessage.date(milliseconds: 1_800_000_000_000) == "Fri, 15 Jan 2027 08:00:00 +0000")
        #expect(SMTPMessage.encodedHeader("Hello") == "Hello")
        #expect(SMTPMessage.encodedHeader("你好") == "=?UTF-8?B?\(Base64.encodeString(Array("你好".utf8)))?=")
        #expect(SMTPMessage.crlf("a\nb\r\nc\rd") == "a\r\nb\r\nc\r\nd")

        let bytes = SMTPMessage.build(
            from: "app@example.com", to: "u@example.com", subject: "Reset", body: "line 1\nline 2",
            milliseconds: 1_800_000_000_000)
        let text = String(decoding: bytes, as: UTF8.self)
        let parts = text.components(separatedBy: "\r\n\r\n")
        #expect(parts.count == 2)
        let headers = parts[0]
        for header in [
            "From: app@example.com", "To: u@example.com", "Subject: Reset", "Date: Fri, 15 Jan 2027 08:00:00 +0000",
            "Content-Type: text/plain; charset=utf-8", "Content-Transfer-Encoding: base64", "MIME-Version: 1.0",
        ] {
            #expect(headers.contains(header), "\(header)")
        }
        #expect(headers.contains("Message-ID: <") && headers.contains("@example.com>"))
        let body = parts[1].replacingOccurrences(of: "\r\n", with: "")
        let decoded = try #require(Base64.decode(Array(body.utf8)))
        #expect(String(decoding: decoded, as: UTF8.self) == "line 1\r\nline 2")
    }
}

extension SMTPStateMachine.Action {
    /// The reply code of a failure; `nil` for other actions or failures without one.
    fileprivate var failureCode: Int? {
        if case .failed(let error) = self { return error.replyCode }
        return nil
    }
}
