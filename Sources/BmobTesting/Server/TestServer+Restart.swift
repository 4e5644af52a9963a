package import Foundation
import BmobServer

extension TestServer {
    /// Starts a server on a given port with an existing data folder, as a restarted server would come
    /// back: for tests of clients that reconnect (the realtime SDK's auto-reconnect, say).
    ///
    /// - Parameters:
    ///   - dataDirectory: the data folder of the server that stopped; it is kept by ``stop()``.
    ///   - port: the port the stopped server listened on.
    /// - Returns: the running server.
    package static func restart(dataDirectory: URL, port: Int) async throws -> TestServer {
        try await start(dataDirectory: dataDirectory) { $0.port = port }
    }
}
