import BmobCrypto
import BmobWire
import Foundation

/// The security token service beside the bucket (AWS STS, MinIO's, moto's): `AssumeRole` with a session
/// policy, which gives short-lived credentials that can do no more than the policy allows.
package struct STSClient: Sendable {
    private let endpoint: S3Endpoint
    private let roleArn: String
    private let signer: SigV4Signer
    private let transport: S3HTTPTransport

    /// A client of `endpoint`, assuming `configuration`'s role with its long-lived key.
    package init(configuration: S3StorageConfiguration, endpoint: S3Endpoint, transport: S3HTTPTransport) {
        self.endpoint = endpoint
        roleArn = configuration.roleArn
        signer = SigV4Signer(
            credentials: SigV4Credentials(
                accessKeyId: configuration.accessKeyId, secretAccessKey: configuration.secretAccessKey),
            region: configuration.region, service: "sts")
        self.transport = transport
    }

    /// `AssumeRole` (`POST`, form-encoded, API version 2011-06-15): credentials of the role for
    /// `durationSeconds`, limited to `policy` (a JSON policy document), for the session `sessionName`.
    ///
    /// - Throws: ``S3StorageError`` naming STS's error code, or saying what the answer lacked.
    package func assumeRole(sessionName: String, durationSeconds: Int, policy: String) async throws
        -> UploadCredentials
    {
        let form: [(String, String)] = [
            ("Action", "AssumeRole"), ("Version", "2011-06-15"), ("RoleArn", roleArn),
            ("RoleSessionName", sessionName), ("DurationSeconds", String(durationSeconds)), ("Policy", policy),
        ]
        let body = Array(
            form.map {
                SigV4Canonical.encode($0.0, keepingSlash: false) + "="
                    + SigV4Canonical.encode($0.1, keepingSlash: false)
            }
            .joined(separator: "&").utf8)
        let headers: [(name: String, value: String)] = [
            ("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")
        ]
        let request = SigV4Request(
            method: "POST", unencodedPath: endpoint.basePath + "/",
            headers: [(name: "host", value: endpoint.authority)] + headers, payloadHash: SHA256.hex(body))
        let signed = signer.sign(request, secondsSince1970: Int64(Date().timeIntervalSince1970))
        let answer = try await transport.send(
            service: "STS", operation: "AssumeRole", resource: roleArn, method: "POST",
            url: endpoint.scheme + "://" + endpoint.authority + request.path, headers: headers + signed, body: body)
        guard answer.isSuccess else {
            throw answer.failure(service: "STS", operation: "AssumeRole", resource: roleArn)
        }
        do {
            return try Self.credentials(in: answer.body)
        } catch {
            throw S3StorageError(
                service: "STS", operation: "AssumeRole", resource: roleArn, status: answer.status,
                message: "unreadable AssumeRoleResponse: \(error)")
        }
    }

    /// The `AssumeRoleResponse/AssumeRoleResult/Credentials` of an answer.
    private static func credentials(in body: [UInt8]) throws -> UploadCredentials {
        let root = try S3XMLReader.parse(body)
        try root.expect("AssumeRoleResponse")
        guard let credentials = root.child("AssumeRoleResult")?.child("Credentials") else {
            throw S3XMLError(.missingElement, "AssumeRoleResponse lacks AssumeRoleResult/Credentials")
        }
        let expiration = try credentials.requiredText("Expiration")
        guard let milliseconds = BmobDateFormat.parse(expiration.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw S3XMLError(.invalidValue, "Expiration must be an ISO 8601 date")
        }
        return UploadCredentials(
            accessKeyId: try credentials.requiredText("AccessKeyId"),
            secretAccessKey: try credentials.requiredText("SecretAccessKey"),
            sessionToken: try credentials.requiredText("SessionToken"), expiresAt: milliseconds / 1000)
    }
}
