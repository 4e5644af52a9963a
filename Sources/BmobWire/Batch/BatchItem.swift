/// One element of a batch, decoded: what to do to which object, with which body and session token.
///
/// Two shapes are read:
/// - REST (`POST /1/batch`, and the Objective-C SDK over `/8/batch`): `{"method":"POST|PUT|DELETE|GET",
///   "path":"/1/classes/<C>[/<id>]", "body":{…}?, "token":"…"?}` (or `/1/users[/<id>]`, `/1/roles[/<id>]`),
///   methods in any case (JS sends `post`);
/// - native (the Swift SDK over `/8/batch`): `{"method":"create|update|delete", "c":"<C>", "objectId":"…"?,
///   "data":{…}?, "token"|"sessionToken":"…"?}`.
///
/// Class names are not checked here: the object service answers 103 for each element, as it does for REST.
package struct BatchItem: Sendable, Equatable {
    /// What an element does.
    package enum Action: Sendable, Equatable {
        case create(className: String)
        case update(className: String, objectId: String)
        case delete(className: String, objectId: String)
        case get(className: String, objectId: String)
    }

    /// Bmob's limit on requests in one batch (114 beyond it).
    package static let maximumCount = 50

    /// The operation and the object it applies to.
    package var action: Action
    /// The create or update body; `[:]` for the others.
    package var body: [String: JSONValue]
    /// The element's own session token, used instead of the request's.
    package var sessionToken: String?

    /// Creates an element from its parts.
    package init(action: Action, body: [String: JSONValue] = [:], sessionToken: String? = nil) {
        self.action = action
        self.body = body
        self.sessionToken = sessionToken
    }

    /// Decodes the `requests` member of a batch: an array of at most ``maximumCount`` elements.
    ///
    /// - Parameters:
    ///   - requests: The `requests` member, `nil` when missing.
    ///   - allowNativeShape: Also accept the native element shape (the `/8/` front door does; REST does not).
    /// - Throws: ``BmobRequestError`` 112 when `requests` is not an array, 114 for more than 50 elements, 113 for
    ///   a malformed element.
    package static func decodeList(_ requests: JSONValue?, allowNativeShape: Bool) throws(BmobRequestError)
        -> [BatchItem]
    {
        guard case .array(let elements)? = requests else {
            throw BmobRequestError(.batchNotArray, "requests must be an array")
        }
        guard elements.count <= maximumCount else {
            throw BmobRequestError(.batchTooLarge, "too many requests in one batch (at most \(maximumCount))")
        }
        var items: [BatchItem] = []
        items.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            if allowNativeShape, element["path"] == nil {
                items.append(try BatchItem(native: element, index: index))
            } else {
                items.append(try BatchItem(rest: element, index: index))
            }
        }
        return items
    }

    /// Decodes a REST-shaped element.
    ///
    /// - Throws: ``BmobRequestError`` 113 for a malformed element.
    package init(rest item: JSONValue, index: Int) throws(BmobRequestError) {
        guard let method = item["method"]?.stringValue?.uppercased(), let path = item["path"]?.stringValue else {
            throw BmobRequestError(.invalidBatchElement, "request \(index) needs a method and a path")
        }
        var segments =
            path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first
            .map { $0.split(separator: "/").map(String.init) } ?? []
        // `/1/users[/<id>]` is the `_User` class, `/1/roles[/<id>]` the `_Role` class.
        if segments.count >= 2, segments.count <= 3, segments.first == "1",
            let className = ["users": "_User", "roles": "_Role"][segments[1]]
        {
            segments.replaceSubrange(1...1, with: ["classes", className])
        }
        guard segments.count >= 3, segments.count <= 4, segments[0] == "1", segments[1] == "classes" else {
            throw BmobRequestError(
                .invalidBatchElement,
                "request \(index) has an unsupported path; expected /1/classes/<class>[/<objectId>], "
                    + "/1/users[/<objectId>] or /1/roles[/<objectId>]")
        }
        segments = segments.map { QueryString.decode($0, plusIsSpace: false) }
        let className = segments[2]
        let objectId = segments.count == 4 ? segments[3] : nil
        switch (method, objectId) {
        case ("POST", nil): action = .create(className: className)
        case ("PUT", let id?): action = .update(className: className, objectId: id)
        case ("DELETE", let id?): action = .delete(className: className, objectId: id)
        case ("GET", let id?): action = .get(className: className, objectId: id)
        default:
            throw BmobRequestError(
                .invalidBatchElement,
                "request \(index): method \(QueryParseError.quoted(method)) is not allowed on its path")
        }
        body = try Self.body(item["body"], index: index)
        sessionToken = try Self.token(item, index: index)
    }

    /// Decodes a native-shaped element.
    ///
    /// - Throws: ``BmobRequestError`` 113 for a malformed element.
    package init(native item: JSONValue, index: Int) throws(BmobRequestError) {
        guard case .object = item else {
            throw BmobRequestError(.invalidBatchElement, "request \(index) must be an object")
        }
        guard let method = item["method"]?.stringValue?.lowercased() else {
            throw BmobRequestError(.invalidBatchElement, "request \(index) needs a method")
        }
        guard let className = item["c"]?.stringValue ?? item["className"]?.stringValue else {
            throw BmobRequestError(.invalidBatchElement, "request \(index) needs a class name in 'c'")
        }
        let objectId: String?
        switch item["objectId"] {
        case nil, .null?: objectId = nil
        case .string(let text)?: objectId = text.isEmpty ? nil : text
        default: throw BmobRequestError(.invalidBatchElement, "request \(index) has an objectId that is not a string")
        }
        switch (method, objectId) {
        case ("create", nil), ("post", nil): action = .create(className: className)
        case ("update", let id?), ("put", let id?): action = .update(className: className, objectId: id)
        case ("delete", let id?): action = .delete(className: className, objectId: id)
        case ("update", nil), ("put", nil), ("delete", nil):
            throw BmobRequestError(.invalidBatchElement, "request \(index): \(method) needs an objectId")
        case ("create", _?), ("post", _?):
            throw BmobRequestError(.invalidBatchElement, "request \(index): create takes no objectId")
        default:
            throw BmobRequestError(
                .invalidBatchElement,
                "request \(index): unknown method \(QueryParseError.quoted(method)); expected create, update or delete")
        }
        body = try Self.body(item["data"] ?? item["body"], index: index)
        sessionToken = try Self.token(item, index: index)
    }

    private static func body(_ value: JSONValue?, index: Int) throws(BmobRequestError) -> [String: JSONValue] {
        switch value {
        case nil, .null?: return [:]
        case .object(let members)?: return members
        default: throw BmobRequestError(.invalidBatchElement, "request \(index) has a body that is not an object")
        }
    }

    private static func token(_ item: JSONValue, index: Int) throws(BmobRequestError) -> String? {
        switch item["token"] ?? item["sessionToken"] {
        case nil, .null?: return nil
        case .string(let token)?: return token.isEmpty ? nil : token
        default: throw BmobRequestError(.invalidBatchElement, "request \(index) has a token that is not a string")
        }
    }
}
