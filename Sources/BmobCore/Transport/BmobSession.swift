package import Foundation

/// What a successful initialize established: the app, its key for the native envelope, and the server's
/// settings.
package struct BmobSession: Sendable {
    /// The Application ID.
    package var appKey: String
    /// The server, without a trailing slash or `/8`.
    package var domain: URL
    /// The AES key of every request after the handshake (the app's secret key).
    package var secretKey: [UInt8]
    /// Server time minus device time, in seconds, from `/8/init`.
    package var clockOffset: Int
    /// The `data` object `/8/init` answered (`io`, `file`, `api`, …).
    package var settings: [String: String]
}
