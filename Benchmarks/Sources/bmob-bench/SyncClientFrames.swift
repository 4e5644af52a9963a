/// The text of the sync messages the benchmark sends (`sync.md` §1.3), built as strings since every value in
/// them is a number or a name that needs no JSON escaping.
enum SyncClientFrames {
    /// `Connect`, the first message on a socket, with a fresh random session id.
    ///
    /// - Parameter random: the source of the session id.
    /// - Returns: the message's text.
    static func connect(using random: inout FastRandom) -> [UInt8] {
        let sessionId = String(random.next(), radix: 16) + "-" + String(random.next(), radix: 16)
        return Array(
            #"{"type":"Connect","sessionId":"\#(sessionId)","connectionCount":0,"lastCloseReason":"InitialConnect","clientTs":0}"#
                .utf8)
    }

    /// `ModifyQuerySet` from version 0 to 1 adding query 0: `<table>:list` of one group's objects, newest first.
    ///
    /// - Parameters:
    ///   - table: the class.
    ///   - group: the value of `group` the query selects.
    ///   - limit: the query's `limit`.
    /// - Returns: the message's text.
    static func subscribe(table: String, group: Int, limit: Int) -> [UInt8] {
        let arguments = #"{"where":{"group":\#(group)},"order":"-createdAt","limit":\#(limit)}"#
        return Array(
            #"{"type":"ModifyQuerySet","baseVersion":0,"newVersion":1,"modifications":[{"type":"Add","queryId":0,"udfPath":"\#(table):list","args":[\#(arguments)]}]}"#
                .utf8)
    }

    /// `Mutation` running `<table>:add` with the object the REST load creates too.
    ///
    /// - Parameters:
    ///   - requestId: the socket's request id for it.
    ///   - table: the class.
    ///   - object: the new object's JSON.
    /// - Returns: the message's text.
    static func add(requestId: Int, table: String, object: String) -> [UInt8] {
        Array(#"{"type":"Mutation","requestId":\#(requestId),"udfPath":"\#(table):add","args":[\#(object)]}"#.utf8)
    }
}
