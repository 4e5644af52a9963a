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

    /// One frame for every listener but `excluded`.
    init(_ frame: PusherFrame, excluding excluded: PusherSocketId? = nil) {
        frames = [Frame(bytes: WebSocketFrame(opcode: .text, payload: Array(frame.encoded.utf8)).encoded(), excluded: excluded)]
    }

    private init(frames: [Frame]) {
        self.frames = frames
    }

    static func joined(_ payloads: ArraySlice<PusherDelivery>) -> PusherDelivery {
        PusherDelivery(frames: payloads.flatMap(\.frames))
    }
}
