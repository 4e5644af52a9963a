public import BmobCore
import BmobWire

extension Bmob {
    /// Asks the server what it is: version, capabilities, limits, history retention and realtime address.
    ///
    /// ```swift
    /// let info = try await Bmob.serverInfo()
    /// guard info.supports("history") else { return }
    /// ```
    ///
    /// - Returns: The server's answer, read leniently.
    /// - Throws: ``BmobError/notInitialized`` before `Bmob.initialize(appKey:)`; other ``BmobError``s for
    ///   network and server failures (a server without the route answers with an error code).
    public static func serverInfo() async throws -> BmobServerInfo {
        BmobServerInfo(json: try await BmobClient.shared.call("server_info", [:]))
    }
}
