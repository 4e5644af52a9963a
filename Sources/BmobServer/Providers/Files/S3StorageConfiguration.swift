/// Where the S3-compatible provider keeps files (``FileSettings/s3``, settings `s3…`): a bucket on AWS S3,
/// MinIO, moto or any service that speaks S3 with Signature Version 4, and the security token service that
/// issues multipart uploads' short-lived credentials.
///
/// Its description leaves the secret out, so that a logged configuration never shows it.
package struct S3StorageConfiguration: Sendable, Equatable, CustomStringConvertible {
    /// The service's base URL, such as `http://127.0.0.1:9000` or `https://s3.eu-west-1.amazonaws.com`.
    package var endpoint: String
    /// The region requests are signed for.
    package var region: String
    /// The bucket holding the files, under their keys.
    package var bucket: String
    /// The server's long-lived access key id.
    package var accessKeyId: String
    /// The secret of ``accessKeyId``; only ever used to sign.
    package var secretAccessKey: String
    /// Path style (`<endpoint>/<bucket>/<key>`, what MinIO and moto need), or virtual-host style
    /// (`<bucket>.<endpoint host>/<key>`) for the server's own requests. Multipart uploads are always told
    /// path style, the form the SDK's uploader speaks.
    package var pathStyle: Bool
    /// The security token service's base URL; `nil` uses ``endpoint`` (MinIO and moto serve both there; AWS's
    /// is `https://sts.amazonaws.com` or a regional one).
    package var stsEndpoint: String?
    /// The role whose temporary credentials multipart uploads get (AWS needs a real one the access key may
    /// assume; MinIO and moto accept any well-formed ARN).
    package var roleArn: String
    /// How long one request to the bucket or the token service may wait for an answer, in seconds.
    package var requestTimeoutSeconds: Double = 30
    /// How many bytes one ranged read of a download fetches; a download holds at most two such pieces.
    package var downloadChunkBytes = 1 << 20

    /// The role ARN used when none is configured: fine for MinIO and moto, refused by AWS.
    package static let placeholderRoleArn = "arn:aws:iam::000000000000:role/bmob-uploads"

    /// A configuration from its parts; the region defaults to `us-east-1`, path style to on.
    package init(
        endpoint: String = "", region: String = "us-east-1", bucket: String = "", accessKeyId: String = "",
        secretAccessKey: String = "", pathStyle: Bool = true, stsEndpoint: String? = nil,
        roleArn: String = S3StorageConfiguration.placeholderRoleArn
    ) {
        self.endpoint = endpoint
        self.region = region
        self.bucket = bucket
        self.accessKeyId = accessKeyId
        self.secretAccessKey = secretAccessKey
        self.pathStyle = pathStyle
        self.stsEndpoint = stsEndpoint
        self.roleArn = roleArn
    }

    /// Names the settings that are missing or unusable, or nothing when the provider can start.
    package var problems: [String] {
        var problems: [String] = []
        if S3Endpoint(endpoint) == nil { problems.append("s3Endpoint (an http:// or https:// URL)") }
        if let stsEndpoint, S3Endpoint(stsEndpoint) == nil {
            problems.append("s3StsEndpoint (an http:// or https:// URL)")
        }
        if region.isEmpty { problems.append("s3Region") }
        if !Self.isBucketName(bucket) {
            problems.append("s3Bucket (3 to 63 lowercase letters, digits, dots or dashes)")
        }
        if accessKeyId.isEmpty { problems.append("s3AccessKeyId") }
        if secretAccessKey.isEmpty { problems.append("s3SecretAccessKey") }
        if roleArn.isEmpty { problems.append("s3RoleArn") }
        return problems
    }

    /// Every field but the secret.
    package var description: String {
        "S3StorageConfiguration(endpoint: \(endpoint), region: \(region), bucket: \(bucket), accessKeyId: "
            + "\(accessKeyId), pathStyle: \(pathStyle), stsEndpoint: \(stsEndpoint ?? endpoint), roleArn: \(roleArn))"
    }

    /// Whether `name` is a bucket name S3 accepts (its DNS-compatible rules), so that it may go in a path or
    /// a host name unencoded.
    private static func isBucketName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard (3...63).contains(bytes.count), let first = bytes.first, let last = bytes.last,
            first != UInt8(ascii: "."), first != UInt8(ascii: "-"), last != UInt8(ascii: "."), last != UInt8(ascii: "-")
        else { return false }
        return bytes.allSatisfy {
            ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z")) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9"))
                || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-")
        }
    }
}
