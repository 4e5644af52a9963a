public import BmobWire

/// What a trigger is told: the event, the class, the object (or query, or results) and who acts.
public struct TriggerRequest: Sendable {
    /// When the trigger runs.
    public var event: TriggerEvent
    /// The class (`_User` for the login triggers).
    public var className: String
    /// `beforeSave`: the fields being written (operations such as `Increment` as sent); `afterSave`, the delete
    /// triggers and the login triggers: the stored object, rendered as the master key sees it.
    public var object: [String: JSONValue]?
    /// `beforeSave` of an update: the object as stored before it.
    public var original: [String: JSONValue]?
    /// `beforeFind`: the query's `where`, as the query compiled it (`nil`: every object).
    package var query: FindQuery?
    /// `afterFind`: the objects the query answers.
    public var results: [JSONValue]?
    /// The caller's user id, when the request carried a valid session.
    public var userId: String?
    /// Whether the request carried the master key.
    public var isMaster: Bool
    /// The app.
    public var applicationId: String
    /// The request's id, as the server's log names it.
    public var requestId: String
    /// The app's data, as the caller sees it (``CloudData/asMaster`` for the master key's view).
    public var data: CloudData
}
