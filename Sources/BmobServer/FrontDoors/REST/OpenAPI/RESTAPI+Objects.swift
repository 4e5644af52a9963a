import BmobWire

extension RESTAPI {
    /// Objects, queries, batches and schemas.
    static let objects: [String: OpenAPIOperation] = [
        "POST /1/classes/:className": OpenAPIOperation(
            "Create an object (of `_User`: a signup)", tag: "Objects", parameters: [className],
            body: .json(OpenAPISchemas.ref("Fields"), "the object's fields; `{}` for none"),
            answers: [
                .created(OpenAPISchemas.ref("Created"), "the new object's id and creation date"),
                .json(OpenAPISchemas.ref("LoggedIn"), "`_User` with `authData` of a linked account: a login"),
            ]),
        "GET /1/classes/:className/:objectId": OpenAPIOperation(
            "Get an object", tag: "Objects", parameters: [className, objectId] + getParameters,
            answers: [.json(OpenAPISchemas.ref("Object"), "the object as the caller may see it")]),
        "PUT /1/classes/:className/:objectId": OpenAPIOperation(
            "Update an object", tag: "Objects", parameters: [className, objectId],
            body: .json(
                OpenAPISchemas.ref("Fields"), "fields to set and operators to apply; none only moves `updatedAt`",
                required: false),
            answers: [.json(OpenAPISchemas.ref("Updated"), "the new update date")]),
        "DELETE /1/classes/:className/:objectId": OpenAPIOperation(
            "Delete an object", tag: "Objects", parameters: [className, objectId], answers: [.ok]),
        "POST /1/batch": OpenAPIOperation(
            "Run up to 50 object requests in order", tag: "Objects",
            body: .json(OpenAPISchemas.ref("BatchRequest"), "the requests"),
            answers: [.json(OpenAPISchemas.ref("BatchAnswer"), "each request's answer or error")]),
        "GET /1/classes/:className": OpenAPIOperation(
            "Find objects", tag: "Queries", parameters: [className] + findParameters,
            answers: [.json(OpenAPISchemas.ref("Results"), "the objects found, or the statistics' rows")]),
        "GET /1/cloudQuery": OpenAPIOperation(
            "Run a BQL query", tag: "Queries",
            parameters: [
                .query(
                    "bql", "the statement (`select * from GameScore where score > ? limit 10`)",
                    schema: ["type": "string", "minLength": 1], required: true),
                .jsonQuery("values", "the values of the statement's `?` placeholders", schema: ["type": "array"]),
            ],
            answers: [.json(OpenAPISchemas.ref("Results"), "the objects found, and `count` when selected")]),
        "GET /1/schemas": OpenAPIOperation(
            "List every class's schema", tag: "Schemas", access: .master,
            answers: [
                .json(
                    OpenAPISchemas.object(
                        ["results": ["type": "array", "items": OpenAPISchemas.ref("Schema")]], required: ["results"]),
                    "the schemas")
            ]),
        "GET /1/schemas/:className": OpenAPIOperation(
            "Get a class's schema", tag: "Schemas", access: .master, parameters: [className],
            answers: [.json(OpenAPISchemas.ref("Schema"), "the schema")]),
        "POST /1/schemas/:className": OpenAPIOperation(
            "Create a class", tag: "Schemas", access: .master, parameters: [className],
            body: .json(
                OpenAPISchemas.ref("SchemaChange"), "its fields, indexes and permissions; none for a class without fields",
                required: false),
            answers: [.json(OpenAPISchemas.ref("Schema"), "the new schema")]),
        "PUT /1/schemas/:className": OpenAPIOperation(
            "Change a class's fields, indexes or permissions", tag: "Schemas", access: .master, parameters: [className],
            body: .json(OpenAPISchemas.ref("SchemaChange"), "what to add or remove; none changes nothing", required: false),
            answers: [.json(OpenAPISchemas.ref("Schema"), "the schema as changed")]),
        "DELETE /1/schemas/:className": OpenAPIOperation(
            "Delete an empty class", tag: "Schemas", access: .master, parameters: [className], answers: [.ok]),
    ]

    /// `include` and `keys` of a get.
    static let getParameters: [OpenAPIParameter] = [
        .query("include", "pointer fields to fetch whole, comma-separated; dots nest (`post.author`)"),
        .query("keys", "the fields to answer, comma-separated (system fields always come)"),
    ]

    /// The query parameters of a find (`GET /1/classes/<C>`, `/1/users`, `/1/roles`).
    static let findParameters: [OpenAPIParameter] = [
        .jsonQuery("where", "the condition (`{\"score\": {\"$gt\": 10}}`)", schema: ["type": "object"]),
        .query("order", "fields, comma-separated; `-` before a field sorts descending"),
        .query("limit", "at most this many objects (default 100, at most 1000; 0 with `count` counts only)",
            schema: ["type": "integer"]),
        .query("skip", "skip this many objects first", schema: ["type": "integer"]),
        .query("keys", "the fields to answer, comma-separated"),
        .query("include", "pointer fields to fetch whole, comma-separated"),
        .query("count", "`1` or `true`: answer the number of matches in `count`"),
        .query("groupby", "group by these fields, comma-separated"),
        .query("groupcount", "`true`: each group's size in `_count`"),
        .query("sum", "fields to sum, comma-separated (answered as `_sum<Field>`)"),
        .query("average", "fields to average, comma-separated"),
        .query("max", "fields to take the largest value of, comma-separated"),
        .query("min", "fields to take the smallest value of, comma-separated"),
        .jsonQuery("having", "a condition on the statistics (`{\"_sumScore\": {\"$gt\": 100}}`)", schema: ["type": "object"]),
    ]
}
