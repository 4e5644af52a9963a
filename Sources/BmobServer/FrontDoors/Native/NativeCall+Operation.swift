import BmobWire

extension NativeCall {
    /// The call as the operation every door runs; `nil` for `init`, which only the native door answers.
    ///
    /// - Throws: ``BmobAPIError`` 102 for a history filter the history service cannot read.
    func operation() throws(BmobAPIError) -> Operation? {
        switch self {
        case .initialize: nil
        case .timestamp: .timestamp
        case .create(let className, let fields): .create(className: className, body: fields)
        case .update(let className, let objectId, let body): .update(className: className, objectId: objectId, body: body)
        case .delete(let className, let objectId): .delete(className: className, objectId: objectId)
        case .get(let className, let objectId, let include, let keys):
            .get(className: className, objectId: objectId, include: include, keys: keys)
        case .find(let query): .find(query)
        case .batch(let items): .batch(items)
        case .cloudQuery(let bql, let values): .cloudQuery(bql: bql, values: values)
        case .schemas(let className): .schemas(className: className)
        case .signUp(let fields): .create(className: UserService.className, body: fields)
        case .logIn(let account, let password): .logIn(account: account, password: password)
        case .checkSession(let objectId): .checkSession(userId: objectId)
        case .logOut(let objectId): .logOut(userId: objectId)
        case .updatePassword(let objectId, let oldPassword, let newPassword):
            .updatePassword(userId: objectId, oldPassword: oldPassword, newPassword: newPassword)
        case .requestSmsCode(let phone, let template): .requestSmsCode(mobilePhoneNumber: phone, template: template)
        case .verifySmsCode(let phone, let code): .verifySmsCode(mobilePhoneNumber: phone, smsCode: code)
        case .querySms(let smsId): .querySms(smsId: smsId)
        case .logInWithSmsCode(let phone, let code, let fields, let allowSignUp):
            .logInWithSmsCode(mobilePhoneNumber: phone, smsCode: code, fields: fields, allowSignUp: allowSignUp)
        case .resetPasswordBySmsCode(let code, let password, let phone):
            .resetPasswordBySmsCode(smsCode: code, password: password, mobilePhoneNumber: phone)
        case .requestPasswordReset(let address): .requestPasswordReset(email: address)
        case .requestEmailVerify(let address): .requestEmailVerify(email: address)
        case .planUpload(let filename, let size, let resume): .planUpload(filename: filename, size: size, resume: resume)
        case .uploadFile(let filename, let mimeType, let content):
            .uploadFile(filename: filename, mimeType: mimeType, bytes: content)
        case .registerUpload(let filename, let size, let token):
            .registerUpload(filename: filename, size: size, uploadToken: token)
        case .deleteFile(let reference): .deleteFile(reference: reference)
        case .deleteFiles(let references): .deleteFiles(references: references)
        case .callFunction(let name, let params): .callFunction(name: name, params: params, paramsAsStrings: true)
        case .history(let className, let objectId, let filter):
            .history(className: className, objectId: objectId, filter: try HistoryFilter(json: filter))
        case .deleted(let className, let filter): .deletedObjects(className: className, filter: try HistoryFilter(json: filter))
        case .revert(let className, let objectId, let seq, let ifUpdatedAt):
            .revert(className: className, objectId: objectId, seq: seq, ifUpdatedAt: ifUpdatedAt)
        case .restore(let className, let objectId): .restore(className: className, objectId: objectId)
        case .serverInfo: .serverInfo
        }
    }
}
