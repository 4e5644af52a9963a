/// Where a multipart upload goes (an S3 endpoint, path style: `<endpoint>/<bucket>/<key>`) and the
/// short-lived credentials that may write its one key.
package struct MultipartTarget: Sendable, Equatable {
    /// The S3 endpoint's base URL.
    package var endpoint: String
    /// The region requests are signed for.
    package var region: String
    /// The bucket.
    package var bucket: String
    /// Credentials for the key only, valid for minutes.
    package var credentials: UploadCredentials

    package init(endpoint: String, region: String, bucket: String, credentials: UploadCredentials) {
        self.endpoint = endpoint
        self.region = region
        self.bucket = bucket
        self.credentials = credentials
    }
}
