package import BmobWire

extension FileService {
    /// The S3 region the local provider's endpoint signs with.
    package static let localRegion = "bmob"
    /// The bucket name the local provider's endpoint answers to.
    package static let localBucket = "files"
    /// The smallest part of a multipart upload but the last (S3's rule).
    package static let minimumPartBytes = 5 * 1024 * 1024
    /// The most parts of a multipart upload (S3's rule).
    package static let maximumParts = 10_000

    /// `/8/cdn`: the threshold and the provider, and for a file of `size` bytes at or above the threshold, the
    /// multipart upload's plan: endpoint, region, bucket, key, part size, short-lived credentials for that key
    /// only, and the upload token that resumes and registers it. `resume` (an earlier plan's upload token of
    /// this app) keeps the earlier key.
    ///
    /// - Throws: ``BmobAPIError`` 146 for a bad name, 145 above the largest file, 150 for a `resume` token this
    ///   server did not issue to this app.
    package func planUpload(filename: String, size: Int64, resume: String?, context: AppContext) async throws
        -> JSONValue
    {
        let name = try Self.checkedName(filename)
        var answer: [String: JSONValue] = [
            "uploadThreshold": .int(Int64(settings.uploadThreshold)), "cdn": .string(storage.cdnName),
        ]
        guard size >= Int64(settings.uploadThreshold) else { return .object(answer) }
        guard size <= Int64(settings.maximumFileBytes) else {
            throw BmobAPIError(
                .fileTooLarge, "the file is larger than \(settings.maximumFileBytes) bytes", status: .payloadTooLarge)
        }
        let key: FileKey
        if let resume {
            guard let grant = credentials.grant(sessionToken: resume), grant.applicationId == context.app.applicationId,
                grant.key.fileExtension == name.fileExtension
            else {
                throw BmobAPIError(.fileUploadError, "the upload to resume was not issued to this app")
            }
            key = grant.key
        } else {
            key = newKey(fileExtension: name.fileExtension)
        }
        let grant = UploadGrant(
            applicationId: context.app.applicationId, key: key,
            expiresAt: clock.nowSeconds + Int64(settings.credentialSeconds))
        let target: MultipartTarget
        do {
            target = try await storage.multipartTarget(
                for: grant, issuer: credentials, baseURL: settings.baseURL ?? server.publicURL)
        } catch let error as BmobAPIError {
            throw error
        } catch {
            throw BmobAPIError.storageUnavailable(.fileUploadError, "the storage cannot issue upload credentials", cause: error)
        }
        answer["upload"] = [
            "endpoint": .string(target.endpoint), "region": .string(target.region), "bucket": .string(target.bucket),
            "key": .string(key.rawValue), "partSize": .int(Int64(Self.partSize(for: size, settings: settings))),
            "credentials": target.credentials.json, "uploadToken": .string(credentials.token(for: grant)),
        ]
        return .object(answer)
    }

    /// `/8/savecdnupload`: records the file a multipart upload stored under the key of `uploadToken`, once its
    /// bytes are all there. Registering the same upload again answers the same file.
    ///
    /// - Throws: ``BmobAPIError`` 146 for a bad name, 150 for a token this server did not issue to this app, an
    ///   expired one, or a file that is missing or of another size.
    package func registerUpload(filename: String, size: Int64, uploadToken: String, context: AppContext) async throws
        -> StoredFileAnswer
    {
        let name = try Self.checkedName(filename)
        guard let grant = credentials.grant(sessionToken: uploadToken), grant.applicationId == context.app.applicationId
        else {
            throw BmobAPIError(.fileUploadError, "the upload was not issued to this app")
        }
        guard grant.expiresAt >= clock.nowSeconds else {
            throw BmobAPIError(.fileUploadError, "the upload's credentials expired; ask /8/cdn to resume it")
        }
        let stored: Int?
        do {
            stored = try await storage.size(of: grant.key)
        } catch {
            throw BmobAPIError.storageUnavailable(.fileUploadError, "the storage cannot be reached", cause: error)
        }
        guard let stored, Int64(stored) == size else {
            throw BmobAPIError(.fileUploadError, "the upload is not complete: \(grant.key.rawValue) does not hold \(size) bytes")
        }
        let caller = try await callers.caller(context)
        do {
            return try await record(
                key: grant.key, name: name, mimeType: nil, size: stored, owner: caller.userId, context: context)
        } catch let error as BmobAPIError where error.code == .duplicateValue {
            // Registered already (a retry after a lost answer): the same file.
            return StoredFileAnswer(filename: name.value, url: url(of: grant.key), cdn: storage.cdnName)
        }
    }

    /// The part size for a file of `size` bytes: the `partBytes` setting, or more (in whole MiB) when 10,000
    /// parts would not hold the file.
    package static func partSize(for size: Int64, settings: FileSettings) -> Int {
        let perPart = (size + Int64(maximumParts) - 1) / Int64(maximumParts)
        guard perPart > Int64(settings.partBytes) else { return settings.partBytes }
        let mebibyte: Int64 = 1024 * 1024
        return Int((perPart + mebibyte - 1) / mebibyte * mebibyte)
    }
}
