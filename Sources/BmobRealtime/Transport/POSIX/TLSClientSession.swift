#if canImport(Glibc) || canImport(Musl) || canImport(Android)
import COpenSSL

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

/// One TLS client session over memory BIOs: the I/O thread moves ciphertext between the socket and
/// ``receive(ciphertext:)`` / ``takeCiphertext()``, so every socket write goes through `send(2)` with
/// `MSG_NOSIGNAL` and OpenSSL never blocks. Owned by one I/O thread (not `Sendable`); freed in `deinit`.
final class TLSClientSession {
    /// What reading plaintext found.
    enum ReadResult {
        /// More ciphertext is needed.
        case needsInput
        /// The peer sent close_notify.
        case closed
    }

    private let context: TLSClientContext
    private let ssl: OpaquePointer
    /// Ciphertext from the socket, owned by `ssl`.
    private let input: OpaquePointer
    /// Ciphertext for the socket, owned by `ssl`.
    private let output: OpaquePointer

    /// A session that will verify `host`: its name (with SNI) or, for an IP literal, its address.
    ///
    /// - Parameters:
    ///   - context: the context with the trusted CAs; kept alive by the session.
    ///   - host: the host from the URL, without brackets.
    /// - Throws: ``WebSocketTransportError`` with `tlsFailed`.
    init(context: TLSClientContext, host: String) throws(WebSocketTransportError) {
        self.context = context
        guard let ssl = SSL_new(context.pointer) else {
            throw WebSocketTransportError(.tlsFailed, "SSL_new: \(TLSClientContext.lastErrorText())")
        }
        guard let input = BIO_new(BIO_s_mem()), let output = BIO_new(BIO_s_mem()) else {
            SSL_free(ssl)
            throw WebSocketTransportError(.tlsFailed, "BIO_new: \(TLSClientContext.lastErrorText())")
        }
        SSL_set_bio(ssl, input, output)
        self.ssl = ssl
        self.input = input
        self.output = output
        SSL_set_connect_state(ssl)
        let configured: Bool
        if Self.isIPAddress(host) {
            configured = X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), host) == 1
        } else {
            configured = COpenSSL_SSL_set_tlsext_host_name(ssl, host) == 1 && SSL_set1_host(ssl, host) == 1
        }
        guard configured else {
            throw WebSocketTransportError(.tlsFailed, "cannot set the host to verify: \(TLSClientContext.lastErrorText())")
        }
    }

    deinit {
        SSL_free(ssl)
    }

    /// Advances the handshake with the ciphertext received so far.
    ///
    /// - Returns: `true` once the handshake is complete and the peer verified.
    /// - Throws: ``WebSocketTransportError`` with `tlsFailed`, naming the verification failure if any.
    func handshake() throws(WebSocketTransportError) -> Bool {
        ERR_clear_error()
        let result = SSL_do_handshake(ssl)
        if result == 1 { return true }
        let error = SSL_get_error(ssl, result)
        if error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE { return false }
        let verification = SSL_get_verify_result(ssl)
        if verification != X509_V_OK {
            let text = String(cString: X509_verify_cert_error_string(verification))
            ERR_clear_error()
            throw WebSocketTransportError(.tlsFailed, "certificate verify failed: \(text)")
        }
        throw WebSocketTransportError(.tlsFailed, "TLS handshake failed: \(TLSClientContext.lastErrorText())")
    }

    /// Hands ciphertext read from the socket to OpenSSL.
    ///
    /// - Parameter ciphertext: the bytes, in order.
    func receive(ciphertext: ArraySlice<UInt8>) {
        guard !ciphertext.isEmpty else { return }
        ciphertext.withUnsafeBytes { buffer in
            // A memory BIO grows as needed, so the write takes everything.
            _ = BIO_write(input, buffer.baseAddress, Int32(buffer.count))
        }
    }

    /// Decrypts everything decryptable, passing the plaintext to `sink`.
    ///
    /// - Parameter sink: receives plaintext chunks in order.
    /// - Returns: whether more input is needed or the peer closed TLS.
    /// - Throws: ``WebSocketTransportError`` with `tlsFailed` for a broken record.
    func readPlaintext(_ sink: ([UInt8]) -> Void) throws(WebSocketTransportError) -> ReadResult {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            ERR_clear_error()
            let count = buffer.withUnsafeMutableBytes { SSL_read(ssl, $0.baseAddress, Int32($0.count)) }
            if count > 0 {
                sink(Array(buffer[0..<Int(count)]))
                continue
            }
            switch SSL_get_error(ssl, count) {
            case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE: return .needsInput
            case SSL_ERROR_ZERO_RETURN: return .closed
            default: throw WebSocketTransportError(.tlsFailed, "TLS read failed: \(TLSClientContext.lastErrorText())")
            }
        }
    }

    /// Encrypts plaintext; the ciphertext waits in ``takeCiphertext()``.
    ///
    /// - Parameter plaintext: the bytes to send.
    /// - Throws: ``WebSocketTransportError`` with `tlsFailed`.
    func write(plaintext: [UInt8]) throws(WebSocketTransportError) {
        var offset = 0
        while offset < plaintext.count {
            ERR_clear_error()
            let written = plaintext[offset...].withUnsafeBytes { SSL_write(ssl, $0.baseAddress, Int32(clamping: $0.count)) }
            guard written > 0 else {
                throw WebSocketTransportError(.tlsFailed, "TLS write failed: \(TLSClientContext.lastErrorText())")
            }
            offset += Int(written)
        }
    }

    /// Queues a close_notify alert.
    func shutdown() {
        ERR_clear_error()
        _ = SSL_shutdown(ssl)
        ERR_clear_error()
    }

    /// The ciphertext OpenSSL produced since the last call, for the socket.
    func takeCiphertext() -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while BIO_ctrl_pending(output) > 0 {
            let count = buffer.withUnsafeMutableBytes { BIO_read(output, $0.baseAddress, Int32($0.count)) }
            guard count > 0 else { break }
            bytes += buffer[0..<Int(count)]
        }
        return bytes
    }

    /// Whether `host` is an IPv4 or IPv6 literal.
    private static func isIPAddress(_ host: String) -> Bool {
        var address = in6_addr()
        return inet_pton(AF_INET, host, &address) == 1 || inet_pton(AF_INET6, host, &address) == 1
    }
}
#endif
