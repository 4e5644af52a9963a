#if canImport(Glibc) || canImport(Musl) || canImport(Android)
import COpenSSL

/// An OpenSSL client context (`SSL_CTX`) that verifies peers against a ``WebSocketTLSConfiguration``.
/// Owned by one connection; freed in `deinit`.
final class TLSClientContext {
    /// The `SSL_CTX`.
    let pointer: OpaquePointer

    /// A context requiring a verified peer with TLS 1.2 or later.
    ///
    /// - Parameter configuration: which CAs to trust.
    /// - Throws: ``WebSocketTransportError`` with `tlsFailed` when OpenSSL cannot make it or a CA file
    ///   cannot be loaded.
    init(configuration: WebSocketTLSConfiguration) throws(WebSocketTransportError) {
        ERR_clear_error()
        guard let context = SSL_CTX_new(TLS_client_method()) else {
            throw WebSocketTransportError(.tlsFailed, "SSL_CTX_new: \(TLSClientContext.lastErrorText())")
        }
        pointer = context
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
        guard COpenSSL_SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION) == 1 else {
            throw WebSocketTransportError(.tlsFailed, "cannot require TLS 1.2")
        }
        if configuration.trustsSystemCertificates {
            // Missing system paths are not an error: the handshake then fails on verification.
            _ = SSL_CTX_set_default_verify_paths(context)
        }
        for file in configuration.additionalTrustedCertificateFiles {
            guard SSL_CTX_load_verify_file(context, file) == 1 else {
                throw WebSocketTransportError(
                    .tlsFailed, "cannot load trusted certificates: \(TLSClientContext.lastErrorText())")
            }
        }
        ERR_clear_error()
    }

    deinit {
        SSL_CTX_free(pointer)
    }

    /// The oldest error on this thread's OpenSSL error queue, as text, and clears the queue.
    static func lastErrorText() -> String {
        let code = ERR_get_error()
        ERR_clear_error()
        guard code != 0 else { return "unknown OpenSSL error" }
        var buffer = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
#endif
