/// Large transitions on the wire (`sync.md` §1.4): the server splits a `Transition`'s JSON text into
/// `TransitionChunk`s, the client joins them back in order before decoding.
package enum SyncTransitionChunks {
    /// The most parts one transition may be split into.
    package static let maximumParts = 1024

    /// `message` as it goes out: itself when its text fits in `maximumBytes`, else `TransitionChunk`s of at most
    /// `maximumBytes` bytes of its text each (cut between characters), named `transitionId`.
    ///
    /// - Parameters:
    ///   - message: a message; only transitions are split.
    ///   - maximumBytes: the largest message text to send whole, and the largest chunk; at least 64.
    ///   - transitionId: the id the chunks share.
    package static func split(
        _ message: SyncServerMessage, maximumBytes: Int, transitionId: String
    ) -> [SyncServerMessage] {
        precondition(maximumBytes >= 64, "chunks of at least 64 bytes")
        let text = message.encoded
        guard case .transition = message, text.utf8.count > maximumBytes else { return [message] }
        var pieces: [String] = []
        var current = ""
        var currentBytes = 0
        for character in text {
            let size = character.utf8.count
            if currentBytes + size > maximumBytes, !current.isEmpty {
                pieces.append(current)
                current = ""
                currentBytes = 0
            }
            current.append(character)
            currentBytes += size
        }
        if !current.isEmpty { pieces.append(current) }
        return pieces.enumerated().map { index, piece in
            .transitionChunk(
                chunk: piece, partNumber: Int64(index), totalParts: Int64(pieces.count), transitionId: transitionId)
        }
    }
}
