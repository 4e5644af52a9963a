import BmobCrypto
import BmobWire
import Foundation

/// The server admin's sign-in to the web console: the password of the `consolePasswordFile` setting, which
/// lists every app with its keys (`POST /1/console/apps`). Without that setting there is no admin sign-in, and
/// the console signs in with one app's id and master key instead.
///
/// The password is compared by its SHA-256 digest in constant time (neither where it differs nor its length
/// shows in the time taken), and failed attempts slow the guesser as failed logins do
/// (``ConsoleSignInLimiter``).
package struct ConsoleAdmin: Sendable {
    /// The SHA-256 of the password.
    private let digest: [UInt8]
    /// Failed attempts, per client address and in all.
    let limiter: ConsoleSignInLimiter

    /// The least length of a console password, in bytes.
    package static let minimumPasswordBytes = 12
    /// The largest password file read.
    static let maximumFileBytes = 4096

    /// An admin sign-in with `password`, limited by `limits` (its failed-login backoffs).
    package init(password: String, limits: AccountLimits) {
        self.digest = SHA256.hash(Array(password.utf8))
        self.limiter = ConsoleSignInLimiter(limits: limits)
    }

    /// The admin sign-in the configuration asks for: `nil` when `consolePasswordFile` is not set.
    ///
    /// - Throws: ``ConfigurationError`` when the file cannot be read, is too large, or holds a password shorter
    ///   than ``minimumPasswordBytes`` (its first line, without surrounding spaces, is the password).
    package static func load(_ configuration: ServerConfiguration) throws(ConfigurationError) -> ConsoleAdmin? {
        guard let path = configuration.consolePasswordFile else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigurationError("consolePasswordFile: cannot read \(path)")
        }
        guard data.count <= maximumFileBytes else {
            throw ConfigurationError("consolePasswordFile: \(path) is larger than \(maximumFileBytes) bytes")
        }
        let text = String(decoding: data, as: UTF8.self)
        let password = (text.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? "")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        guard password.utf8.count >= minimumPasswordBytes else {
            throw ConfigurationError(
                "consolePasswordFile: the password in \(path) must have at least \(minimumPasswordBytes) characters")
        }
        return ConsoleAdmin(password: password, limits: configuration.accountLimits)
    }

    /// Whether `attempt` is the password.
    func matches(_ attempt: String) -> Bool {
        ConstantTime.equals(SHA256.hash(Array(attempt.utf8)), digest)
    }
}
