import BmobServer
import BmobStore
import BmobWire
import Testing

@Suite("socket.io events from neutral changes")
struct SocketIOEventTests {
    private func change(_ op: JournalOperation, before: JSONValue? = nil, after: JSONValue? = nil) -> RealtimeChange {
        RealtimeChange(
            seq: 1, className: "Chat", op: op, objectId: op == .dropClass ? nil : "a1", before: before, after: after)
    }

    @Test(
        "create → updateTable; update → updateTable and updateRow; delete → deleteRow with the last row; drop → deleteTable"
    )
    func mapping() {
        let row: JSONValue = ["objectId": "a1", "name": "n"]
        #expect(SocketIOEvent.events(of: change(.create, after: row)).map(\.action) == [.updateTable])
        let updated = SocketIOEvent.events(of: change(.update, before: row, after: row))
        #expect(updated.map(\.action) == [.updateTable, .updateRow])
        let deleted = SocketIOEvent.events(of: change(.delete, before: row))
        #expect(deleted.map(\.action) == [.deleteRow])
        #expect(deleted.first?.object == row)
        let dropped = SocketIOEvent.events(of: change(.dropClass))
        #expect(dropped.map(\.action) == [.deleteTable])
        #expect(dropped.first?.objectId == "")
        #expect(SocketIOEvent.events(of: change(JournalOperation(rawValue: "future"))).isEmpty)
    }

    @Test("topics: table events ignore the objectId, row events keep it, apps stay apart")
    func topics() {
        #expect(SocketIOTopic(appId: "a", tableName: "Chat", action: .updateTable, objectId: "x")
            == SocketIOTopic(appId: "a", tableName: "Chat", action: .updateTable, objectId: ""))
        #expect(SocketIOTopic(appId: "a", tableName: "Chat", action: .updateRow, objectId: "x")
            != SocketIOTopic(appId: "a", tableName: "Chat", action: .updateRow, objectId: "y"))
        #expect(SocketIOTopic(appId: "a", tableName: "Chat", action: .updateTable, objectId: "")
            != SocketIOTopic(appId: "b", tableName: "Chat", action: .updateTable, objectId: ""))
        let events = SocketIOEvent.events(of: change(.update, after: ["objectId": "a1"]))
        let table = SocketIOTopic(appId: "a", tableName: "Chat", action: .updateTable, objectId: "")
        let row = SocketIOTopic(appId: "a", tableName: "Chat", action: .updateRow, objectId: "a1")
        #expect(events.map { $0.topic(appId: "a") } == [table, row])
    }

    @Test("only what the public may read goes to anonymous subscribers, unless the app ignores ACLs")
    func visibility() throws {
        func event(_ acl: JSONValue?, _ action: BmobRealtimeAction = .updateTable) -> SocketIOEvent {
            var object: [String: JSONValue] = ["objectId": "a1"]
            object["ACL"] = acl
            return SocketIOEvent(tableName: "Chat", action: action, objectId: "a1", object: .object(object))
        }
        #expect(event(nil).isVisibleToPublic(permissions: nil, ignoringACL: false))
        #expect(event(["*": ["read": true]]).isVisibleToPublic(permissions: nil, ignoringACL: false))
        #expect(event(["u1": ["read": true]]).isVisibleToPublic(permissions: nil, ignoringACL: false) == false)
        #expect(event(["u1": ["read": true]]).isVisibleToPublic(permissions: nil, ignoringACL: true))
        let closedFind = try ClassPermissions(json: ["find": ["requiresAuthentication": true]])
        #expect(event(nil).isVisibleToPublic(permissions: closedFind, ignoringACL: true) == false)
        #expect(event(nil, .updateRow).isVisibleToPublic(permissions: closedFind, ignoringACL: false))
        let closedGet = try ClassPermissions(json: ["get": [:]])
        #expect(event(nil, .deleteRow).isVisibleToPublic(permissions: closedGet, ignoringACL: false) == false)
    }
}
