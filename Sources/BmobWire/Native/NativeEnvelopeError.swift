/// Why a native `/8/` body could not be opened.
package enum NativeEnvelopeError: Error, Sendable, Equatable {
    /// The body is not base64 text.
    case notBase64
    /// The ciphertext is not whole AES blocks, or its padding is wrong: usually the wrong key.
    case undecryptable
    /// The plaintext is not a JSON object.
    case notJSON(String)
}
