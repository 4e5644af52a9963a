import BmobCrypto

/// A native `/8/` request body, opened and decoded: the call plus the caller's session token.
///
/// The plaintext is a JSON object whose common members are `c` (class), `objectId`, `data` (the payload or
/// `null`), `sessionToken`, and `client`, `v`, `appSign`, `timestamp` (client details, not needed here). Decoding
/// is pure, so the fuzz target runs it on arbitrary bytes.
package struct NativeRequest: Sendable, Equatable {
    /// The route the body was posted to.
    package var route: NativeRoute
    /// What the body asks for.
    package var call: NativeCall
    /// The logged-in user's token, when the client sent one (what REST reads from `X-Bmob-Session-Token`).
    package var sessionToken: String?

    /// Creates a request from its parts.
    package init(route: NativeRoute, call: NativeCall, sessionToken: String? = nil) {
        self.route = route
        self.call = call
        self.sessionToken = sessionToken
    }

    /// Opens a body keyed with `key` (the app's secret key) and decodes it for `route`.
    ///
    /// A body of only whitespace reads as `{}`.
    ///
    /// - Throws: ``BmobRequestError``: 404 for a route this server does not answer (checked before the body is
    ///   opened), 107 for a body that is not base64, does not decrypt or is not a JSON object, and the codes of
    ///   ``decode(route:members:)``.
    package static func open(route name: some StringProtocol, body: some Collection<UInt8>, key: [UInt8])
        throws(BmobRequestError) -> NativeRequest
    {
        guard let route = NativeRoute(rawValue: String(name)) else {
            throw BmobRequestError(.notFound, "unknown route \(QueryParseError.quoted(name)) on /8/")
        }
        if body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            return try decode(route: route, members: [:])
        }
        let members: [String: JSONValue]
        do {
            members = try NativeEnvelope.openJSON(body, key: key)
        } catch {
            throw BmobRequestError(envelope: error)
        }
        return try decode(route: route, members: members)
    }

    /// Decodes an opened body for `route`.
    ///
    /// - Throws: ``BmobRequestError``: 107 for a member of the wrong type, 103 for a missing class or objectId,
    ///   102/103/117 for a bad query, 112/113/114 for a bad batch, 601 for a missing BQL statement.
    package static func decode(route: NativeRoute, members: [String: JSONValue]) throws(BmobRequestError)
        -> NativeRequest
    {
        let body = Members(members)
        let sessionToken = try body.string("sessionToken")
        let call: NativeCall
        switch route {
        case .initialize:
            call = .initialize
        case .timestamp:
            call = .timestamp
        case .create:
            call = .create(className: try body.className(), fields: try body.dataObject())
        case .update:
            call = .update(className: try body.className(), objectId: try body.objectId(), body: try body.dataObject())
        case .delete:
            call = .delete(className: try body.className(), objectId: try body.objectId())
        case .find:
            call = try find(body)
        case .batch:
            let requests = members["requests"] ?? members["data"]?["requests"]
            call = .batch(try BatchItem.decodeList(requests, allowNativeShape: true))
        case .cloudQuery:
            call = try cloudQuery(body)
        case .schemas:
            call = .schemas(className: try body.string("c"))
        case .signUp:
            if let phoneLogin = try smsCodeLogin(body, allowSignUp: true) {
                call = phoneLogin
                break
            }
            call = .signUp(fields: try body.dataObject())
        case .logIn:
            if let phoneLogin = try smsCodeLogin(body, allowSignUp: false) {
                call = phoneLogin
                break
            }
            let data = Members(try body.dataObject())
            let username = try data.string("username")
            let email = try data.string("email")
            let phone = try data.string("mobilePhoneNumber")
            guard let account = username ?? email ?? phone, let password = try data.string("password") else {
                throw BmobRequestError(.usernamePasswordRequired, "data.username and data.password are required")
            }
            call = .logIn(account: account, password: password)
        case .checkSession:
            call = .checkSession(objectId: try body.objectId())
        case .logOut:
            let dataObjectId = try Members(try body.dataObject()).string("objectId")
            let topObjectId = try body.string("objectId")
            call = .logOut(objectId: dataObjectId ?? topObjectId)
        case .updateUserPassword:
            let data = Members(try body.dataObject())
            guard let oldPassword = try data.string("oldPassword"), let newPassword = try data.string("newPassword") else {
                throw BmobRequestError(.missingParameter, "data.oldPassword and data.newPassword are required")
            }
            call = .updatePassword(objectId: try body.objectId(), oldPassword: oldPassword, newPassword: newPassword)
        case .requestSmsCode:
            call = .requestSmsCode(
                mobilePhoneNumber: try dataOrTop(body, "mobilePhoneNumber"), template: try dataOrTop(body, "template"))
        case .verifySmsCode:
            call = .verifySmsCode(
                mobilePhoneNumber: try dataOrTop(body, "mobilePhoneNumber"), smsCode: try dataOrTop(body, "smsCode"))
        case .querySms:
            call = .querySms(smsId: try smsId(body))
        case .logInOrSignUp:
            // The service answers 118 for a missing number or code.
            call = try phoneLogin(body, allowSignUp: true)
        case .reset, .phoneReset:
            if route == .reset, let email = try dataOrTop(body, "email") {
                call = .requestPasswordReset(email: email)
            } else {
                call = .resetPasswordBySmsCode(
                    smsCode: try dataOrTop(body, "smsCode"), password: try dataOrTop(body, "password"),
                    mobilePhoneNumber: try dataOrTop(body, "mobilePhoneNumber"))
            }
        case .emailVerify:
            call = .requestEmailVerify(email: try dataOrTop(body, "email"))
        case .cdn, .files, .saveCdnUpload, .deleteCdnUpload, .deleteCdnBatch:
            call = try fileCall(route, Members(try body.dataObject()))
        case .history:
            // An empty objectId asks for the class's history, as a missing one does.
            let objectId = try body.string("objectId")
            call = .history(
                className: try body.className(), objectId: objectId?.isEmpty == false ? objectId : nil,
                filter: .object(try body.dataObject()))
        case .deleted:
            call = .deleted(className: try body.className(), filter: .object(try body.dataObject()))
        case .revert:
            let data = try body.dataObject()
            guard let seq = data["seq"]?.int64Value, seq > 0 else {
                throw BmobRequestError(.missingParameter, "data.seq, the number of the change to revert to before, is required")
            }
            var ifUpdatedAt: Int64?
            if let given = data["ifUpdatedAt"], !given.isNull {
                let text = given.stringValue ?? (given["__type"]?.stringValue == "Date" ? given["iso"]?.stringValue : nil)
                guard let milliseconds = text.flatMap(BmobDateFormat.parse) else {
                    throw BmobRequestError(.invalidJSON, "data.ifUpdatedAt must be a Bmob date")
                }
                ifUpdatedAt = milliseconds
            }
            call = .revert(className: try body.className(), objectId: try body.objectId(), seq: seq, ifUpdatedAt: ifUpdatedAt)
        case .restore:
            call = .restore(className: try body.className(), objectId: try body.objectId())
        case .serverInfo:
            call = .serverInfo
        case .functions:
            var params = try body.dataObject()
            guard case .string(let name)? = params.removeValue(forKey: "_e"), !name.isEmpty else {
                throw BmobRequestError(.invalidCloudCodeName, "data._e, the function's name, is required")
            }
            call = .callFunction(name: name, params: params)
        }
        return NativeRequest(route: route, call: call, sessionToken: sessionToken)
    }

    /// The most file references one `delcdnbatch` may name (the service refuses more than 100; this bounds
    /// decoding).
    static let maximumBatchFileReferences = 1000

    /// A file route's call from its `data`.
    private static func fileCall(_ route: NativeRoute, _ data: Members) throws(BmobRequestError) -> NativeCall {
        func required(_ name: String) throws(BmobRequestError) -> String {
            guard let value = try data.string(name) else {
                throw BmobRequestError(.missingParameter, "data.\(name) is required")
            }
            return value
        }
        func size(_ name: String) throws(BmobRequestError) -> Int64 {
            switch data.members[name] {
            case .int(let value)? where value >= 0: return value
            case .double(let value)? where value >= 0 && value <= 9e15 && value == value.rounded(): return Int64(value)
            case nil, .null?: throw BmobRequestError(.missingParameter, "data.\(name) is required")
            default: throw BmobRequestError(.invalidJSON, "data.\(name) must be a byte count")
            }
        }
        switch route {
        case .cdn:
            return .planUpload(filename: try required("filename"), size: try size("size"), resume: try data.string("resume"))
        case .files:
            guard case .string(let text)? = data.members["content"], let content = Base64.decode(Array(text.utf8)) else {
                throw BmobRequestError(.invalidJSON, "data.content must be the file's bytes in base64")
            }
            return .uploadFile(filename: try required("filename"), mimeType: try data.string("mimeType"), content: content)
        case .saveCdnUpload:
            return .registerUpload(
                filename: try required("filename"), size: try size("filesize"), uploadToken: try required("sessionToken"))
        case .deleteCdnUpload:
            let filename = try data.string("filename")
            let url = try data.string("url")
            guard let reference = filename ?? url else {
                throw BmobRequestError(.missingParameter, "data.filename (the file's key or URL) is required")
            }
            return .deleteFile(reference: reference)
        default:
            return .deleteFiles(
                references: try FileBatchReferences.decode(data.members, path: "data.", maximum: maximumBatchFileReferences))
        }
    }

    /// The phone login of `login` / `signup` when `data.smsCode` is there, else `nil`.
    private static func smsCodeLogin(_ body: Members, allowSignUp: Bool) throws(BmobRequestError) -> NativeCall? {
        guard let code = try body.dataObject()["smsCode"], !code.isNull else { return nil }
        return try phoneLogin(body, allowSignUp: allowSignUp)
    }

    /// A phone login with the number and code of `data` (or the top level) and the rest of `data`.
    private static func phoneLogin(_ body: Members, allowSignUp: Bool) throws(BmobRequestError) -> NativeCall {
        .logInWithSmsCode(
            mobilePhoneNumber: try dataOrTop(body, "mobilePhoneNumber"), smsCode: try dataOrTop(body, "smsCode"),
            fields: try body.dataObject(), allowSignUp: allowSignUp)
    }

    /// A string member of `data`, else of the top level (the vendor Swift SDK sends SMS fields at the top).
    private static func dataOrTop(_ body: Members, _ name: String) throws(BmobRequestError) -> String? {
        let data = try body.dataObject()
        if data[name] != nil, data[name]?.isNull == false { return try Members(data).string(name) }
        return try body.string(name)
    }

    /// `smsId` of `query_sms`, in `data` or at the top level, a number or digits in a string.
    ///
    /// - Throws: 118 when missing or not a whole number.
    private static func smsId(_ body: Members) throws(BmobRequestError) -> Int64 {
        let value = try body.dataObject()["smsId"] ?? body.members["smsId"]
        switch value {
        case .int(let id)?: return id
        case .double(let number)?: if let id = Int64(exactly: number) { return id }
        case .string(let text)?: if let id = Int64(text.trimmingSpaces()) { return id }
        default: break
        }
        throw BmobRequestError(.missingParameter, "smsId (a whole number) is required")
    }

    /// One object when an `objectId` is given (its `data` may still carry `include` and `keys`), else a query.
    private static func find(_ body: Members) throws(BmobRequestError) -> NativeCall {
        let className = try body.className()
        let data = body.members["data"] ?? .null
        guard data.isNull || data.objectValue != nil else {
            throw BmobRequestError(.invalidQuery, "data must be a JSON object or null")
        }
        guard let objectId = try body.string("objectId") else {
            return .find(try query(className: className, withTopLevelPaging(data, body)))
        }
        // Only the projection matters for one object; the rest of `data` is ignored.
        var projection: [String: JSONValue] = [:]
        projection["include"] = data["include"]
        projection["keys"] = data["keys"]
        let query = try query(className: className, .object(projection))
        return .get(className: className, objectId: objectId, include: query.include, keys: query.keys)
    }

    /// `data` with `count`, `limit` and `skip` from the top level of the body when `data` has none: Bmob's
    /// official Swift SDK (1.0.x) sends a count as `"count":1,"limit":0` beside `data.where`.
    private static func withTopLevelPaging(_ data: JSONValue, _ body: Members) -> JSONValue {
        var members = data.objectValue ?? [:]
        var changed = false
        for name in ["count", "limit", "skip"] where members[name] == nil {
            guard let value = body.members[name], !value.isNull else { continue }
            members[name] = value
            changed = true
        }
        return changed ? .object(members) : data
    }

    private static func query(className: String, _ data: JSONValue) throws(BmobRequestError) -> FindQuery {
        do {
            return try FindQueryDecoder.decode(className: className, json: data)
        } catch {
            throw BmobRequestError(query: error)
        }
    }

    private static func cloudQuery(_ body: Members) throws(BmobRequestError) -> NativeCall {
        let data = body.members["data"] ?? .null
        guard let bql = data["bql"]?.stringValue, !bql.trimmingSpaces().isEmpty else {
            throw BmobRequestError(.invalidBQL, "data.bql (the BQL statement) is required")
        }
        switch data["values"] {
        case nil, .null?:
            return .cloudQuery(bql: bql, values: [])
        case .array(let values)?:
            return .cloudQuery(bql: bql, values: values)
        case .string(let text)?:
            // The REST form sends values as JSON text; some clients do the same here.
            if text.trimmingSpaces().isEmpty { return .cloudQuery(bql: bql, values: []) }
            guard case .array(let values)? = try? JSONParser.parse(text) else {
                throw BmobRequestError(.invalidBQL, "data.values must be a JSON array")
            }
            return .cloudQuery(bql: bql, values: values)
        default:
            throw BmobRequestError(.invalidBQL, "data.values must be a JSON array")
        }
    }

    /// Typed access to the body's members, with Bmob's codes for missing or mistyped ones.
    private struct Members {
        var members: [String: JSONValue]

        init(_ members: [String: JSONValue]) {
            self.members = members
        }

        /// A string member; `nil` when missing, `null` or empty.
        func string(_ name: String) throws(BmobRequestError) -> String? {
            switch members[name] {
            case nil, .null?: return nil
            case .string(let text)?: return text.isEmpty ? nil : text
            default: throw BmobRequestError(.invalidJSON, "\(name) must be a string")
            }
        }

        func className() throws(BmobRequestError) -> String {
            guard let className = try string("c") else {
                throw BmobRequestError(.invalidClassName, "c (the class name) is required")
            }
            return className
        }

        func objectId() throws(BmobRequestError) -> String {
            guard let objectId = try string("objectId") else {
                throw BmobRequestError(.invalidClassName, "objectId is required")
            }
            return objectId
        }

        /// `data` as an object; missing or `null` is `{}`.
        func dataObject() throws(BmobRequestError) -> [String: JSONValue] {
            switch members["data"] {
            case nil, .null?: return [:]
            case .object(let object)?: return object
            default: throw BmobRequestError(.invalidJSON, "data must be a JSON object")
            }
        }
    }
}
