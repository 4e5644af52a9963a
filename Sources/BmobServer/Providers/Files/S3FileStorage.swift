package import BmobHTTP
import BmobCrypto
package import BmobWire

/// Files in an S3-compatible bucket (AWS S3, MinIO, …), under their keys: the provider of a server whose
/// nodes share one store of files, chosen by the `s3…` settings (``FileSettings/s3``).
///
/// Small uploads are `PutObject`s made by the server; large ones go straight from the client to the bucket, with
/// temporary credentials from the bucket's security token service (`AssumeRole` with a session policy that
/// allows writing the upload's one key). Downloads go through the server (``S3ObjectSource``), so file URLs stay
/// `<files base URL>/<key>` whatever the provider and the bucket need not be public.
package struct S3FileStorage: FileStorage {
    /// The bucket and how to reach it.
    package let configuration: S3StorageConfiguration
    private let endpoint: S3Endpoint
    private let client: S3Client
    private let sts: STSClient
    private let clock: ServerClock

    /// `s3`.
    package var cdnName: String { "s3" }

    /// The shortest lifetime AWS STS issues credentials for.
    package static let minimumCredentialSeconds = 900
    /// The longest lifetime AWS STS issues credentials for (a role's own limit may be lower).
    package static let maximumCredentialSeconds = 43_200

    /// A provider of `configuration`'s bucket; `clock` tells how long an upload's grant has left.
    ///
    /// - Throws: ``ConfigurationError`` naming the settings that are missing or unusable.
    package init(configuration: S3StorageConfiguration, clock: ServerClock) throws(ConfigurationError) {
        let problems = configuration.problems
        guard problems.isEmpty, let endpoint = S3Endpoint(configuration.endpoint),
            let stsEndpoint = S3Endpoint(configuration.stsEndpoint ?? configuration.endpoint)
        else {
            throw ConfigurationError("S3 file storage: set \(problems.joined(separator: ", "))")
        }
        let transport = S3HTTPTransport(timeoutSeconds: configuration.requestTimeoutSeconds)
        self.configuration = configuration
        self.endpoint = endpoint
        self.client = S3Client(configuration: configuration, endpoint: endpoint, transport: transport)
        self.sts = STSClient(configuration: configuration, endpoint: stsEndpoint, transport: transport)
        self.clock = clock
    }

    /// `PutObject`, with the type of the key's extension and the same caching rule as the server's downloads
    /// (a key is never reused), should the bucket ever serve it itself.
    package func write(_ bytes: [UInt8], to key: FileKey) async throws {
        try await client.putObject(
            key, bytes: bytes,
            headers: [
                ("Content-Type", FileContentType.forExtension(key.fileExtension)),
                ("Cache-Control", "public, max-age=31536000, immutable"),
            ])
    }

    /// `HeadObject`'s size.
    package func size(of key: FileKey) async throws -> Int? {
        try await client.headObject(key)?.size
    }

    /// `HeadObject`, then the object read in ranged pieces as the client takes them.
    package func open(_ key: FileKey) async throws -> (any HTTPByteSource)? {
        guard let head = try await client.headObject(key) else { return nil }
        return S3ObjectSource(key: key, head: head, chunkBytes: configuration.downloadChunkBytes, client: client)
    }

    /// `HeadObject` to tell whether there was an object (S3's delete answers 204 either way), then
    /// `DeleteObject`.
    package func remove(_ key: FileKey) async throws -> Bool {
        guard try await client.headObject(key) != nil else { return false }
        try await client.deleteObject(key)
        return true
    }

    /// The bucket, path style, with credentials from `AssumeRole` limited to the grant's key; they last until
    /// the grant expires (at least the 15 minutes STS insists on). `issuer` and `baseURL` serve the local
    /// provider only.
    ///
    /// - Throws: ``BmobAPIError`` 150 (HTTP 503) when the token service does not issue them; the cause logged
    ///   names its error code.
    package func multipartTarget(for grant: UploadGrant, issuer: UploadCredentialIssuer, baseURL: String) async throws
        -> MultipartTarget
    {
        let remaining = Int(clamping: grant.expiresAt - clock.nowSeconds)
        let duration = min(max(remaining, Self.minimumCredentialSeconds), Self.maximumCredentialSeconds)
        let credentials: UploadCredentials
        do {
            credentials = try await sts.assumeRole(
                sessionName: "bmob-" + SecureRandom.hex(byteCount: 8), durationSeconds: duration,
                policy: Self.uploadPolicy(bucket: configuration.bucket, key: grant.key))
        } catch {
            throw BmobAPIError.storageUnavailable(
                .fileUploadError, "the file storage cannot issue upload credentials", cause: error)
        }
        return MultipartTarget(
            endpoint: endpoint.url, region: configuration.region, bucket: configuration.bucket,
            credentials: credentials)
    }

    /// The session policy of an upload's credentials: the multipart operations on `key` of `bucket`, nothing
    /// else (`s3:PutObject` covers initiating, uploading parts and completing).
    package static func uploadPolicy(bucket: String, key: FileKey) -> String {
        let policy: JSONValue = [
            "Version": "2012-10-17",
            "Statement": [
                [
                    "Effect": "Allow",
                    "Action": ["s3:PutObject", "s3:AbortMultipartUpload", "s3:ListMultipartUploadParts"],
                    "Resource": [.string("arn:aws:s3:::\(bucket)/\(key.rawValue)")],
                ]
            ],
        ]
        return String(decoding: policy.jsonBytes, as: UTF8.self)
    }
}
