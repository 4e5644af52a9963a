import BmobWire
import Foundation

/// An S3 or STS base URL taken apart: what a signed request needs for its URL and its `host` header.
///
/// A default port (80 for `http`, 443 for `https`) is dropped, so that the `host` header signed is the one the
/// HTTP client sends.
package struct S3Endpoint: Sendable, Equatable {
    /// `http` or `https`.
    package var scheme: String
    /// The host name or address (an IPv6 address in brackets).
    package var host: String
    /// The port when it is not the scheme's default.
    package var port: Int?
    /// A path prefix before the bucket or key, unencoded, without a trailing `/` (usually empty).
    package var basePath: String

    /// The endpoint `text` names, or `nil` unless it is an `http://` or `https://` URL with a host and no
    /// query, fragment or user info.
    package init?(_ text: String) {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty,
            components.query == nil, components.fragment == nil, components.user == nil, components.password == nil
        else { return nil }
        self.scheme = scheme
        self.host = host.contains(":") && !host.hasPrefix("[") ? "[" + host + "]" : host.lowercased()
        let defaultPort = scheme == "https" ? 443 : 80
        self.port = components.port.flatMap { $0 == defaultPort ? nil : $0 }
        var path = components.path
        while path.hasSuffix("/") { path.removeLast() }
        self.basePath = path
    }

    /// The `host` header: the host, and the port when it is not the default.
    package var authority: String {
        port.map { "\(host):\($0)" } ?? host
    }

    /// The same service addressed through the subdomain `bucket` (virtual-host style).
    package func withBucketHost(_ bucket: String) -> S3Endpoint {
        var endpoint = self
        endpoint.host = bucket + "." + host
        return endpoint
    }

    /// The base URL again, normalised: `scheme://authority/basePath`.
    package var url: String {
        scheme + "://" + authority + (basePath.isEmpty ? "" : SigV4Canonical.encodePath(basePath))
    }
}
