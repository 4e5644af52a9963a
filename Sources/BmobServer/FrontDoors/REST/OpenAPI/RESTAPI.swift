import BmobWire

/// The REST API's description: an ``OpenAPIOperation`` for every route under `/1/` and `/2/`, keyed by
/// `"<METHOD> <route pattern>"` as the router registers it (`GET /1/classes/:className`). ``OpenAPIDocument`` builds
/// the document from the router's routes and these entries; a test fails on a route without an entry and on an
/// entry without a route.
package enum RESTAPI {
    /// Every entry, by `"<METHOD> <pattern>"`.
    package static let operations: [String: OpenAPIOperation] = objects
        .merging(users) { first, _ in first }
        .merging(services) { first, _ in first }

    /// The tags' order and descriptions.
    static let tags: [(name: String, description: String)] = [
        ("Objects", "Objects of any class: create, get, update, delete, and batches of them"),
        ("Queries", "Finds with conditions, statistics and BQL"),
        ("Schemas", "Classes' fields, indexes and permissions (Master Key)"),
        ("Users", "Signup, login, sessions and passwords"),
        ("Roles", "Roles and their members"),
        ("Verification", "SMS codes and mailed links"),
        ("Files", "Uploads, deletes and signed download URLs"),
        ("Functions", "Cloud functions"),
        ("History", "Change history, revert and restore"),
        ("Channels", "Realtime channel authorization"),
        ("Server", "The server's time, capabilities and this document"),
    ]

    // Parameters several routes share.
    static let className = OpenAPIParameter.path(
        "className", "the class (`_User`, `_Role`, or a name of letters, digits and `_` starting with a letter)",
        schema: [
            "type": "string", "pattern": "^([A-Za-z][A-Za-z0-9_]{0,127}|_User|_Role|_Installation|_Session|_File)$",
            "examples": ["GameScore"],
        ])
    static let objectId = OpenAPIParameter.path("objectId", "the object's id", schema: ["type": "string", "minLength": 1])
    static let userId = OpenAPIParameter.path("objectId", "the user's id", schema: ["type": "string", "minLength": 1])
}
