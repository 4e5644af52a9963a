/// The socket.io 0.9 fan-out (`bmob-bench fanout`): a handshake `GET /socket.io/1/?t=…`, the upgrade to
/// `/socket.io/1/websocket/{session}`, a `client_sub` to one class's `updateTable` events with an ack id (as the
/// Flutter client sends it), and REST creates (`POST /1/classes/{table}` with `{"seq":n,"sentAt":ns}`) that the
/// server turns into `server_pub` events. With `groups`, each create also carries `"group":g`
/// (``LiveQueryGroups``), which makes it the very write the live-query benchmark sends.
struct SocketIODialect: FanoutDialect {
    let appId: String
    let restKey: String
    /// The class whose `updateTable` events every connection subscribes to.
    let table: String
    /// How many groups the creates are spread over (a `group` field), or `nil` for no such field.
    let groups: Int?
    let subscribeFrame: [UInt8]
    let heartbeatReply = Array("2::".utf8)

    /// - Parameters:
    ///   - appId: the app's id.
    ///   - restKey: its REST key.
    ///   - table: a class name of letters, digits and underscores.
    ///   - groups: how many groups the creates are spread over, or `nil` for creates without a `group` field.
    init(appId: String, restKey: String, table: String, groups: Int? = nil) {
        self.appId = appId
        self.restKey = restKey
        self.table = table
        self.groups = groups
        let subscription =
            #"{\"appKey\":\"\#(appId)\",\"tableName\":\"\#(table)\","#
            + #"\"objectId\":\"\",\"action\":\"updateTable\"}"#
        subscribeFrame = Array(#"5:1+::{"name":"client_sub","args":["\#(subscription)"]}"#.utf8)
    }

    func handshakeRequest(hostHeader: String) -> String? {
        "GET /socket.io/1/?t=\(wallMilliseconds()) HTTP/1.1\r\nHost: \(hostHeader)\r\nConnection: close\r\n\r\n"
    }

    func upgradeTarget(session: String?) -> String {
        "/socket.io/1/websocket/\(session ?? "")"
    }

    func classify(_ payload: UnsafeRawBufferPointer) -> FanoutPacket {
        FanoutPacket.classify(payload)
    }

    func publishRequest(seq: Int, sentAt: UInt64, hostHeader: String) -> String {
        let group = groups.map { #""group":\#(LiveQueryGroups.group(ofWrite: seq, groups: $0)),"# } ?? ""
        let body = #"{\#(group)"seq":\#(seq),"sentAt":\#(sentAt)}"#
        return "POST /1/classes/\(table) HTTP/1.1\r\nHost: \(hostHeader)\r\n"
            + "X-Bmob-Application-Id: \(appId)\r\nX-Bmob-REST-API-Key: \(restKey)\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
    }
}
