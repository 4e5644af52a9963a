/// Which certificates the Linux WebSocket client trusts for `wss`: the system's trust store, plus any CA
/// files added here (tests add the self-signed CA they make).
///
/// The server's certificate must chain to a trusted CA and name the host (DNS name, or IP address for an IP
/// literal); TLS 1.2 is the oldest version offered, and SNI is sent for host names.
package struct WebSocketTLSConfiguration: Sendable, Hashable {
    /// Whether OpenSSL's default verify paths (the system's CA store) are trusted.
    package var trustsSystemCertificates = true
    /// PEM files of additional trusted CA certificates.
    package var additionalTrustedCertificateFiles: [String] = []

    /// The system's trust store only.
    package init() {}

    /// Trusts the CA certificates in a PEM file as well.
    ///
    /// - Parameter path: the file's path.
    package mutating func trustCertificates(inFile path: String) {
        additionalTrustedCertificateFiles.append(path)
    }
}
