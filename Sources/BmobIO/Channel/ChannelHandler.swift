/// Receives a ``Channel``'s events, on the channel's loop.
package protocol ChannelHandler: AnyObject {
    /// Bytes arrived. The buffer is only valid during the call; copy what you keep.
    func channelRead(_ channel: Channel, _ bytes: UnsafeRawBufferPointer)
    /// The peer finished sending (end of stream). Writes may still be possible.
    func channelInputClosed(_ channel: Channel)
    /// Every queued byte has been handed to the kernel.
    func channelWritesDrained(_ channel: Channel)
    /// The channel closed; it is deregistered and its descriptor released. Called exactly once.
    func channelClosed(_ channel: Channel)
}
