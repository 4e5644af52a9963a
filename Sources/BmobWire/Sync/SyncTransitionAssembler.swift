/// Joins a transition's `TransitionChunk`s back into the `Transition` (a client's side of
/// ``SyncTransitionChunks``): parts must come in order, from 0, with one id and one total, within the limits (``SyncLimits/maximumTransitionBytes`` for the joined text).
package struct SyncTransitionAssembler: Sendable {
    private var transitionId: String?
    private var totalParts: Int64 = 0
    private var nextPart: Int64 = 0
    private var text: [UInt8] = []
    private let limits: SyncLimits

    /// An assembler that refuses transitions whose text is over `limits.maximumTransitionBytes` bytes.
    package init(limits: SyncLimits = SyncLimits()) {
        self.limits = limits
    }

    /// Whether a transition is partly received.
    package var isAssembling: Bool { transitionId != nil }

    /// Takes the next chunk.
    ///
    /// - Returns: the transition once its last part arrived, else `nil`.
    /// - Throws: ``SyncProtocolError`` for a part out of order, another id or total, too many parts, too much text,
    ///   or joined text that is not a transition.
    package mutating func add(
        chunk: String, partNumber: Int64, totalParts: Int64, transitionId: String
    ) throws(SyncProtocolError) -> SyncServerMessage? {
        if self.transitionId == nil {
            guard partNumber == 0, totalParts >= 1, totalParts <= Int64(SyncTransitionChunks.maximumParts) else {
                throw SyncProtocolError(
                    .invalidMember, "a chunked transition starts at part 0 of 1 to \(SyncTransitionChunks.maximumParts)")
            }
            self.transitionId = transitionId
            self.totalParts = totalParts
            nextPart = 0
            text = []
        }
        guard transitionId == self.transitionId, totalParts == self.totalParts, partNumber == nextPart else {
            reset()
            throw SyncProtocolError(.invalidMember, "transition chunks arrive in order, with one id and one total")
        }
        guard text.count + chunk.utf8.count <= limits.maximumTransitionBytes else {
            reset()
            throw SyncProtocolError(.messageTooLarge, "a chunked transition is at most \(limits.maximumTransitionBytes) bytes")
        }
        text.append(contentsOf: chunk.utf8)
        nextPart += 1
        guard nextPart == totalParts else { return nil }
        let joined = text
        reset()
        var joinedLimits = limits
        joinedLimits.maximumMessageBytes = limits.maximumTransitionBytes
        let message = try SyncServerMessage(decoding: joined, limits: joinedLimits)
        guard case .transition = message else {
            throw SyncProtocolError(.unknownType, "transition chunks join into a Transition")
        }
        return message
    }

    private mutating func reset() {
        transitionId = nil
        totalParts = 0
        nextPart = 0
        text = []
    }
}
