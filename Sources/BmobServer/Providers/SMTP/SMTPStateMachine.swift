import BmobCrypto
import BmobWire

/// The client side of one SMTP session (RFC 5321) as a pure state machine: feed it what the server sends with
/// ``bytesReceived(_:)`` and perform the ``Action`` it returns. No I/O, so tests drive it with bytes.
///
/// The dialog is `EHLO`, then `AUTH PLAIN` when credentials are given, `MAIL FROM`, `RCPT TO`, `DATA` with the
/// dot-stuffed message, and `QUIT`. There is no `STARTTLS`: credentials cross the network in the clear, so use
/// it with a relay on the same host or a private network.
package struct SMTPStateMachine {
    /// What the caller does next.
    package enum Action: Equatable, Sendable {
        /// Write these bytes, then read.
        case send([UInt8])
        /// Read more; the server's reply is not complete.
        case readMore
        /// The message was accepted and the session ended: close the connection.
        case finished
        /// The server refused a step or spoke nonsense: close the connection.
        case failed(SMTPError)
    }

    private enum State {
        case greeting, hello, authentication, sender, recipient, data, message, quit, done
    }

    private var state = State.greeting
    private var buffer: [UInt8] = []
    private var replyLines: [String] = []
    private let clientName: String
    private let sender: String
    private let recipient: String
    private let message: [UInt8]
    private let credentials: (username: String, password: String)?

    /// The longest reply line accepted (RFC 5321 allows 512 bytes; servers exceed it in `EHLO` lists).
    private static let maxLineBytes = 8192

    /// A session that delivers `message` from `sender` to `recipient`.
    ///
    /// - Parameters:
    ///   - clientName: the name announced in `EHLO`.
    ///   - sender: the envelope sender address, without angle brackets.
    ///   - recipient: the envelope recipient address, without angle brackets.
    ///   - message: the whole message, headers and body, lines ending in CRLF.
    ///   - username: with `password`, authenticate with `AUTH PLAIN`; `nil` to send without authenticating.
    ///   - password: the password for `username`.
    package init(
        clientName: String, sender: String, recipient: String, message: [UInt8], username: String?, password: String?
    ) {
        self.clientName = clientName
        self.sender = sender
        self.recipient = recipient
        self.message = message
        if let username, let password { credentials = (username, password) } else { credentials = nil }
    }

    /// Takes bytes the server sent and says what to do.
    package mutating func bytesReceived(_ bytes: some Collection<UInt8>) -> Action {
        buffer.append(contentsOf: bytes)
        while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
            var line = Array(buffer[..<newline])
            buffer.removeSubrange(...newline)
            if line.last == UInt8(ascii: "\r") { line.removeLast() }
            let text = String(decoding: line, as: UTF8.self)
            guard text.utf8.count >= 3, let code = Int(text.prefix(3)) else {
                return fail("the server sent something that is not an SMTP reply")
            }
            let separator = text.dropFirst(3).first
            replyLines.append(String(text.dropFirst(4)))
            if separator == "-" { continue }
            let lines = replyLines
            replyLines = []
            return replyReceived(code: code, lines: lines)
        }
        if buffer.count > Self.maxLineBytes { return fail("the server's reply line is too long") }
        return .readMore
    }

    /// The server's reply to the step in progress.
    private mutating func replyReceived(code: Int, lines: [String]) -> Action {
        let text = lines.joined(separator: " ")
        switch state {
        case .greeting:
            guard code == 220 else { return fail("the server refused the connection: \(text)", code) }
            state = .hello
            return command("EHLO \(clientName)")
        case .hello:
            guard code == 250 else { return fail("EHLO refused: \(text)", code) }
            guard let credentials else { return mailFrom() }
            let offersPlain = lines.dropFirst().contains { line in
                let words = line.uppercased().split(separator: " ")
                return words.first == "AUTH" && words.contains("PLAIN")
            }
            guard offersPlain else {
                return fail("the server does not offer AUTH PLAIN without TLS, and this client has no TLS")
            }
            state = .authentication
            let secret = Array("\0\(credentials.username)\0\(credentials.password)".utf8)
            return command("AUTH PLAIN \(Base64.encodeString(secret))")
        case .authentication:
            guard code == 235 else { return fail("authentication failed: \(text)", code) }
            return mailFrom()
        case .sender:
            guard code == 250 else { return fail("MAIL FROM refused: \(text)", code) }
            state = .recipient
            return command("RCPT TO:<\(recipient)>")
        case .recipient:
            guard code == 250 || code == 251 else { return fail("RCPT TO refused: \(text)", code) }
            state = .data
            return command("DATA")
        case .data:
            guard code == 354 else { return fail("DATA refused: \(text)", code) }
            state = .message
            return .send(Self.dotStuffed(message))
        case .message:
            guard code == 250 else { return fail("the message was refused: \(text)", code) }
            state = .quit
            return command("QUIT")
        case .quit:
            state = .done
            return .finished
        case .done:
            return .finished
        }
    }

    private mutating func mailFrom() -> Action {
        state = .sender
        return command("MAIL FROM:<\(sender)>")
    }

    private func command(_ text: String) -> Action {
        .send(Array("\(text)\r\n".utf8))
    }

    private mutating func fail(_ message: String, _ code: Int? = nil) -> Action {
        state = .done
        return .failed(SMTPError(message, replyCode: code))
    }

    /// The message as `DATA` carries it: bare LFs become CRLF, a line starting with `.` gets another `.`, and
    /// `CRLF . CRLF` ends it.
    static func dotStuffed(_ message: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(message.count + 8)
        var atLineStart = true
        var previous: UInt8 = 0
        for byte in message {
            if byte == UInt8(ascii: "\n"), previous != UInt8(ascii: "\r") { output.append(UInt8(ascii: "\r")) }
            if atLineStart, byte == UInt8(ascii: ".") { output.append(UInt8(ascii: ".")) }
            output.append(byte)
            atLineStart = byte == UInt8(ascii: "\n")
            previous = byte
        }
        if !atLineStart { output.append(contentsOf: Array("\r\n".utf8)) }
        output.append(contentsOf: Array(".\r\n".utf8))
        return output
    }
}
