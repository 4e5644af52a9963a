import BmobWire

/// One route's entry in the OpenAPI document: what it does, who may call it, what it reads and answers.
package struct OpenAPIOperation: Sendable {
    /// One line on what the route does.
    package var summary: String
    /// The group it is listed under (`Objects`, `Users`, …).
    package var tag: String
    /// Which keys it needs.
    package var access: OpenAPIAccess
    /// Its path and query parameters.
    package var parameters: [OpenAPIParameter]
    /// What it reads from the body, if anything.
    package var body: OpenAPIRequestBody?
    /// Its successful answers.
    package var answers: [OpenAPIAnswer]
    /// HTTP statuses of Bmob errors this route answers besides those every route may (400, 408, 413, 414, 431, 503,
    /// and 401 when keys are needed).
    package var errors: [Int]

    /// An entry; `access` is ``OpenAPIAccess/app`` unless said otherwise.
    package init(
        _ summary: String, tag: String, access: OpenAPIAccess = .app, parameters: [OpenAPIParameter] = [],
        body: OpenAPIRequestBody? = nil, answers: [OpenAPIAnswer], errors: [Int] = []
    ) {
        self.summary = summary
        self.tag = tag
        self.access = access
        self.parameters = parameters
        self.body = body
        self.answers = answers
        self.errors = errors
    }

    /// Statuses the HTTP layer or the store may answer on any route, in Bmob's error shape.
    static let commonErrors = [400, 408, 413, 414, 431, 503]

    /// The operation object; `operationId` names it uniquely in the document.
    func json(operationId: String) -> JSONValue {
        var responses: [String: JSONValue] = [:]
        for answer in answers { responses[String(answer.status)] = answer.json }
        var errorStatuses = Self.commonErrors + errors
        if access.refusesWithoutKeys { errorStatuses.append(401) }
        for status in errorStatuses where responses[String(status)] == nil {
            responses[String(status)] = ["$ref": .string("#/components/responses/Error")]
        }
        var members: [String: JSONValue] = [
            "operationId": .string(operationId), "summary": .string(summary), "tags": [.string(tag)],
            "security": access.requirements, "responses": .object(responses),
        ]
        if !parameters.isEmpty { members["parameters"] = .array(parameters.map(\.json)) }
        if let body { members["requestBody"] = body.json }
        return .object(members)
    }
}
