import BmobServer
import BmobStore
import BmobWire
import Testing

@Suite("Realtime events from journal entries")
struct RealtimeChangeTests {
    private func entry(_ op: JournalOperation, before: JSONValue? = nil, after: JSONValue? = nil) -> JournalEntry {
        JournalEntry(seq: 1, className: "Chat", objectId: op == .dropClass ? nil : "a1", op: op, before: before, after: after, caller: "rest", time: 0)
    }

    @Test("create → updateTable; update → updateTable and updateRow; delete → deleteRow with the last row; drop → deleteTable")
    func mapping() {
        let row: JSONValue = ["objectId": "a1", "name": "n"]
        #expect(RealtimeChange.changes(of: entry(.create, after: row)).map(\.action) == [.updateTable])
        #expect(RealtimeChange.changes(of: entry(.update, before: row, after: row)).map(\.action) == [.updateTable, .updateRow])
        let deleted = RealtimeChange.changes(of: entry(.delete, before: row))
        #expect(deleted.map(\.action) == [.deleteRow])
        #expect(deleted.first?.object == row)
        let dropped = RealtimeChange.changes(of: entry(.dropClass))
        #expect(dropped.map(\.action) == [.deleteTable])
        #expect(dropped.first?.objectId == "")
        #expect(RealtimeChange.changes(of: entry(JournalOperation(rawValue: "future"))).isEmpty)
    }

    @Test("subscription keys: table events ignore the objectId, row events keep it")
    func keys() {
        #expect(RealtimeSubscriptionKey(tableName: "Chat", action: .updateTable, objectId: "x")
            == RealtimeSubscriptionKey(tableName: "Chat", action: .updateTable, objectId: ""))
        #expect(RealtimeSubscriptionKey(tableName: "Chat", action: .updateRow, objectId: "x")
            != RealtimeSubscriptionKey(tableName: "Chat", action: .updateRow, objectId: "y"))
        let change = RealtimeChange.changes(of: entry(.update, after: ["objectId": "a1"]))[1]
        #expect(change.subscriptionKey == RealtimeSubscriptionKey(tableName: "Chat", action: .updateRow, objectId: "a1"))
    }

    @Test("only what the public may read goes to anonymous subscribers, unless the app ignores ACLs")
    func visibility() throws {
        func change(_ acl: JSONValue?, _ action: BmobRealtimeAction = .updateTable) -> RealtimeChange {
            var object: [String: JSONValue] = ["objectId": "a1"]
            object["ACL"] = acl
            return RealtimeChange(tableName: "Chat", action: action, objectId: "a1", object: .object(object))
        }
        #expect(change(nil).isVisibleToPublic(permissions: nil, ignoringACL: false))
        #expect(change(["*": ["read": true]]).isVisibleToPublic(permissions: nil, ignoringACL: false))
        #expect(change(["u1": ["read": true]]).isVisibleToPublic(permissions: nil, ignoringACL: false) == false)
        #expect(change(["u1": ["read": true]]).isVisibleToPublic(permissions: nil, ignoringACL: true))
        let closedFind = try ClassPermissions(json: ["find": ["requiresAuthentication": true]])
        #expect(change(nil).isVisibleToPublic(permissions: closedFind, ignoringACL: true) == false)
        #expect(change(nil, .updateRow).isVisibleToPublic(permissions: closedFind, ignoringACL: false))
        let closedGet = try ClassPermissions(json: ["get": [:]])
        #expect(change(nil, .deleteRow).isVisibleToPublic(permissions: closedGet, ignoringACL: false) == false)
    }
}
