/// The file settings of a server (``ServerConfiguration/files``).
package struct FileSettings: Sendable, Equatable {
    /// Files of this many bytes or more go through the multipart upload; smaller ones through `/8/files` or
    /// `POST /2/files` (10 MiB, as Bmob's clients expect).
    package var uploadThreshold = 10 * 1024 * 1024
    /// The largest file of a single-request upload (`POST /2/files/<name>`, `/8/files`): Bmob's 10 MiB.
    package var maximumSmallFileBytes = 10 * 1024 * 1024
    /// The largest file of a multipart upload.
    package var maximumFileBytes = 5 * 1024 * 1024 * 1024
    /// The part size multipart uploads are told to use (at least 8 MiB for large files: 10,000 parts must hold
    /// the file). The local endpoint accepts parts but the last down to the smaller of this and 5 MiB, so tests
    /// can use small ones; S3 needs 5 MiB.
    package var partBytes = 8 * 1024 * 1024
    /// The base URL of file URLs (`<base>/<key>`); `nil`: the server's public URL.
    package var baseURL: String?
    /// How long an upload's credentials are valid.
    package var credentialSeconds = 900
    /// How long an unfinished multipart upload is kept.
    package var uploadExpirySeconds = 24 * 3600
    /// Whether files are served only at signed URLs (``DownloadSigner``, made by `POST /2/signedFileURLs` for whoever
    /// may read the file's record); by default a file's URL is public, as on Bmob's CDN.
    package var signedDownloads = false
    /// How long a signed URL is valid when its request names no lifetime.
    package var signedURLSeconds = 3600
    /// The longest lifetime a signed URL may be given.
    package var maximumSignedURLSeconds = 7 * 24 * 3600
    /// The S3-compatible bucket files are kept in (settings `s3…`); `nil`: the local disk, under the data folder.
    package var s3: S3StorageConfiguration?

    /// The defaults.
    package init() {}

    /// ``s3``, or its defaults while it is unset: what each `s3…` setting changes, so that any of them turns
    /// the S3 provider on (the server refuses to start until the required ones are all set).
    package var s3Settings: S3StorageConfiguration {
        get { s3 ?? S3StorageConfiguration() }
        set { s3 = newValue }
    }
}
