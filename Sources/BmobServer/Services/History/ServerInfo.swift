package import BmobWire

/// What the server offers, for clients' feature detection (`GET /1/serverInfo`, native `server_info`): its
/// version, capabilities, limits and realtime address, and with an app's keys the app's history retention.
package enum ServerInfo {
    /// The public part, which needs no keys.
    package static func publicDocument(server: ServerContext) -> JSONValue {
        let configuration = server.configuration
        return [
            "version": .string(BmobVersion.current),
            "capabilities": ["objects", "queries", "users", "roles", "files", "functions", "realtime", "history"],
            "limits": [
                "bodyBytes": .int(Int64(configuration.maxBodyBytes)),
                "batchSize": .int(Int64(BatchItem.maximumCount)),
                "queryLimit": .int(Int64(FindQuery.maximumLimit)),
                "historyLimit": .int(Int64(HistoryFilter.maximumLimit)),
                "uploadThresholdBytes": .int(Int64(configuration.files.uploadThreshold)),
            ],
            "realtime": ["socketIO": .string(server.publicURL + "/socket.io/1/")],
        ]
    }

    /// The public part plus what concerns `app`: its history retention and its cloud functions' names.
    package static func document(server: ServerContext, functions: CloudFunctionService, app: App) -> JSONValue {
        guard case .object(var members) = publicDocument(server: server) else { return publicDocument(server: server) }
        members["history"] = app.history.json
        return .object(members)
    }
}
