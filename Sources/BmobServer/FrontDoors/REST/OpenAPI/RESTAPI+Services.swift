import BmobWire

extension RESTAPI {
    /// Files, functions, history, channels and the server's own routes.
    static let services: [String: OpenAPIOperation] = files
        .merging(history) { first, _ in first }
        .merging(server) { first, _ in first }

    private static let files: [String: OpenAPIOperation] = [
        "POST /2/files/:name": OpenAPIOperation(
            "Upload a small file (larger ones go in parts through the native door)", tag: "Files",
            parameters: [
                .path(
                    "name", "the file's name with its extension (base64 when it is not ASCII)",
                    schema: ["type": "string", "minLength": 1, "examples": ["notes.txt"]])
            ],
            body: .bytes("the file's bytes; `Content-Type` is kept as its type"),
            answers: [.json(OpenAPISchemas.ref("StoredFile"), "the file's name, URL and provider")]),
        "DELETE /2/files/:name/**": OpenAPIOperation(
            "Delete a file (the Master Key, its owner's session, or anyone for a file uploaded without one)",
            tag: "Files",
            parameters: [
                .path("name", "the cdn name clients send (`upyun`, …); not checked", schema: ["type": "string", "minLength": 1]),
                .path(
                    "key", "the file's key (`yyyy/MM/dd/<name>.<ext>`, the path of its URL)",
                    schema: ["type": "string", "minLength": 1]),
            ],
            answers: [.ok]),
        "POST /2/signedFileURLs": OpenAPIOperation(
            "Sign download URLs of files the caller may read", tag: "Files",
            body: .json(
                OpenAPISchemas.object(
                    [
                        "urls": ["type": "array", "items": OpenAPISchemas.string, "maxItems": 100],
                        "expiresIn": ["type": "integer", "description": "seconds, 1 to 7 days"],
                    ], required: ["urls"]), "the files' keys or URLs"),
            answers: [
                .json(
                    OpenAPISchemas.object(
                        ["urls": ["type": "array", "items": OpenAPISchemas.string], "expiresAt": OpenAPISchemas.integer],
                        required: ["urls", "expiresAt"]), "the signed URLs, in order, and when they expire (Unix seconds)")
            ]),
        "POST /2/cdnBatchDelete": OpenAPIOperation(
            "Delete several files", tag: "Files",
            body: .json(
                ["type": "object", "additionalProperties": ["type": "array", "items": OpenAPISchemas.string]],
                "keys or URLs by cdn name (`{\"upyun\": [\"2024/01/02/….png\"]}`)"),
            answers: [.ok]),
        "POST /1/functions/:name": OpenAPIOperation(
            "Call a cloud function", tag: "Functions",
            parameters: [.path("name", "the function's name", schema: ["type": "string", "minLength": 1])],
            body: .json(["type": "object"], "its parameters (`{}` or nothing for none)", required: false),
            answers: [.json(OpenAPISchemas.object(["result": [:]], required: ["result"]), "what the function answered")]),
    ]

    /// `where` (on `since`, `until`, `user`, `op`), `limit` and `skip` of a history read.
    private static let historyParameters: [OpenAPIParameter] = [
        .jsonQuery(
            "where", "`since`, `until` (dates), `user` (an objectId), `op` (`create`, `update`, `delete`)",
            schema: ["type": "object"]),
        .query("limit", "at most this many entries (default 100, at most 1000)", schema: ["type": "integer"]),
        .query("skip", "skip this many entries first (at most 100 000)", schema: ["type": "integer"]),
    ]

    private static let history: [String: OpenAPIOperation] = [
        "GET /1/history/:className/:objectId": OpenAPIOperation(
            "An object's changes, newest first", tag: "History", parameters: [className, objectId] + historyParameters,
            answers: [.json(OpenAPISchemas.ref("History"), "the changes the caller may see")]),
        "GET /1/history/:className": OpenAPIOperation(
            "A class's changes, newest first", tag: "History", parameters: [className] + historyParameters,
            answers: [.json(OpenAPISchemas.ref("History"), "the changes of objects the caller may read")]),
        "GET /1/deleted/:className": OpenAPIOperation(
            "A class's deleted objects that have not come back", tag: "History",
            parameters: [className] + historyParameters,
            answers: [.json(OpenAPISchemas.ref("History"), "each object's delete entry")]),
        "POST /1/history/:className/:objectId/revert": OpenAPIOperation(
            "Bring an object back to its version before a change", tag: "History", parameters: [className, objectId],
            body: .json(
                OpenAPISchemas.object(
                    [
                        "seq": ["type": "integer", "minimum": 1],
                        "ifUpdatedAt": ["description": "a Bmob date or Date object: 409 if the object changed since"],
                    ], required: ["seq"]), "the change to undo, and the version the client saw"),
            answers: [
                .json(
                    OpenAPISchemas.object(
                        [
                            "objectId": OpenAPISchemas.string, "updatedAt": OpenAPISchemas.ref("Date"),
                            "changed": ["type": "array", "items": OpenAPISchemas.string],
                        ], required: ["objectId", "updatedAt", "changed"]), "the fields the revert changed")
            ]),
        "POST /1/deleted/:className/:objectId/restore": OpenAPIOperation(
            "Restore a deleted object with its id", tag: "History", parameters: [className, objectId],
            answers: [
                .json(
                    OpenAPISchemas.object(
                        [
                            "objectId": OpenAPISchemas.string, "createdAt": OpenAPISchemas.ref("Date"),
                            "updatedAt": OpenAPISchemas.ref("Date"),
                        ], required: ["objectId", "createdAt", "updatedAt"]), "the restored object's dates")
            ]),
    ]

    /// `socket_id` (or Bird's `connection_id`) of a channel authorization.
    private static let socket: [String: JSONValue] = [
        "socket_id": ["type": "string", "description": "the connection's id"],
        "connection_id": ["type": "string", "description": "Bird's name for `socket_id`"],
    ]

    private static let server: [String: OpenAPIOperation] = [
        "POST /1/channels/auth": OpenAPIOperation(
            "Sign a private or presence channel subscription for the session's user", tag: "Channels",
            body: .formOrJSON(
                OpenAPISchemas.object(socket.merging(["channel_name": OpenAPISchemas.string]) { first, _ in first }),
                "the connection and the channel"),
            answers: [
                .json(
                    OpenAPISchemas.object(
                        [
                            "auth": OpenAPISchemas.string, "channel_data": OpenAPISchemas.string,
                            "member_data": OpenAPISchemas.string,
                        ], required: ["auth"]), "the signature (and a presence channel's member data)")
            ],
            errors: [403, 404]),
        "POST /1/channels/auth/member": OpenAPIOperation(
            "Sign the session's user in on a channels connection", tag: "Channels",
            body: .formOrJSON(OpenAPISchemas.object(socket), "the connection"),
            answers: [
                .json(
                    OpenAPISchemas.object(
                        ["auth": OpenAPISchemas.string, "user_data": OpenAPISchemas.string], required: ["auth", "user_data"]),
                    "the signature and the user's data")
            ],
            errors: [403, 404]),
        "GET /1/timestamp": OpenAPIOperation(
            "The server's time", tag: "Server",
            answers: [
                .json(
                    OpenAPISchemas.object(
                        ["timestamp": OpenAPISchemas.integer, "datetime": OpenAPISchemas.ref("Date")],
                        required: ["timestamp", "datetime"]), "Unix seconds, and the date in the app's time zone")
            ]),
        "GET /1/serverInfo": OpenAPIOperation(
            "The server's version, capabilities and limits (with an app's keys, the app's history retention too)",
            tag: "Server", access: .openOrApp,
            answers: [.json(OpenAPISchemas.ref("ServerInfo"), "what the server offers")]),
        "POST /1/console/apps": OpenAPIOperation(
            "Every app with its keys, for the server's console password (404 when the server has none)", tag: "Server",
            access: .open,
            body: .json(
                OpenAPISchemas.object(["password": ["type": "string", "minLength": 1]], required: ["password"]),
                "the console password"),
            answers: [
                .json(
                    OpenAPISchemas.object([
                        "results": [
                            "type": "array",
                            "items": OpenAPISchemas.object([
                                "name": OpenAPISchemas.string, "applicationId": OpenAPISchemas.string,
                                "restKey": OpenAPISchemas.string, "masterKey": OpenAPISchemas.string,
                                "createdAt": ["type": "integer", "description": "milliseconds since 1970"],
                            ]),
                        ]
                    ]), "the apps")
            ],
            errors: [401, 404]),
        OpenAPIRoutes.route: OpenAPIOperation(
            "This document", tag: "Server", access: .open,
            answers: [.json(["type": "object"], "the OpenAPI 3.1 description of the REST API")]),
    ]
}
