import BmobWire

/// What the channels door's hub carries: encoded WebSocket frames, each with the one connection it must skip
/// (a client event is not echoed to its sender; an HTTP API publish may name a `socket_id` to exclude).
struct PusherDelivery: RealtimePayload {
    /// One frame and whom it skips.
    struct Frame: Sendable {
        var bytes: [UInt8]
        var excluded: PusherSocketId?
    }

    var frames: [Frame]
    /// Every frame's bytes one after the other, when several were joined and none skips anyone: what a listener
    /// that fell behind gets in one write instead of one per frame (the join runs once for all listeners).
    private(set) var combined: [UInt8]?

    /// One frame for every listener but `excluded`.
    init(_ frame: PusherFrame, excluding excluded: PusherSocketId? = nil) {
        frames = [Frame(bytes: WebSocketFrame(opcode: .text, payload: Array(frame.encoded.utf8)).encoded(), excluded: excluded)]
    }

    private init(frames: [Frame]) {
        self.frames = frames
        if frames.count > 1, frames.allSatisfy({ $0.excluded == nil }) {
            combined = frames.flatMap(\.bytes)
        }
    }

    static func joined(_ payloads: ArraySlice<PusherDelivery>) -> PusherDelivery {
        PusherDelivery(frames: payloads.flatMap(\.frames))
    }

    /// The bytes for the listener `socket`: the frames that do not skip it, in one buffer (so one write).
    func bytes(for socket: PusherSocketId) -> [UInt8]? {
        if frames.count == 1 { return frames[0].excluded == socket ? nil : frames[0].bytes }
        if let combined { return combined }
        var bytes: [UInt8] = []
        for frame in frames where frame.excluded != socket { bytes.append(contentsOf: frame.bytes) }
        return bytes.isEmpty ? nil : bytes
    }
}
