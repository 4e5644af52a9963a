import BmobIO
import Foundation

/// A test CA and server certificates made with the `openssl` CLI in a temporary folder.
struct TestCertificates {
    let folder: URL
    /// The CA certificate (PEM) that signed the server certificates.
    var caFile: String { folder.appendingPathComponent("ca.pem").path }
    /// The certificate for `localhost` and `127.0.0.1`.
    var serverCertificate: String { folder.appendingPathComponent("server.pem").path }
    var serverKey: String { folder.appendingPathComponent("server.key").path }
    /// A certificate signed by the same CA for `other.test` only.
    var otherCertificate: String { folder.appendingPathComponent("other.pem").path }
    var otherKey: String { folder.appendingPathComponent("other.key").path }

    /// Makes the CA and both server certificates.
    static func make() async throws -> TestCertificates {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bmob-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let certificates = TestCertificates(folder: folder)
        let curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try await openssl(
            ["req", "-x509"] + curve + [
                "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=Bmob Realtime Test CA",
                "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
            ], in: folder)
        for (name, names) in [("server", "DNS:localhost,IP:127.0.0.1"), ("other", "DNS:other.test")] {
            try await openssl(["req"] + curve + ["-keyout", "\(name).key", "-out", "\(name).csr", "-subj", "/CN=\(name)"], in: folder)
            try "subjectAltName=\(names)\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n"
                .write(to: folder.appendingPathComponent("\(name).ext"), atomically: true, encoding: .utf8)
            try await openssl(
                [
                    "x509", "-req", "-in", "\(name).csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
                    "-out", "\(name).pem", "-days", "2", "-extfile", "\(name).ext",
                ], in: folder)
        }
        return certificates
    }

    /// Removes the folder.
    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }

    private static func openssl(_ arguments: [String], in folder: URL) async throws {
        let process = try ChildProcess("/usr/bin/env", ["openssl"] + arguments, directory: folder.path)
        // Waits without holding a thread of Swift's shared executor.
        let termination = await process.waitForExit()
        guard termination == .exited(0) else {
            throw PeerError("openssl \(arguments.first ?? "") failed: \(termination)")
        }
    }
}
