import BmobWire
package import Foundation

/// The native protocol's `User-Agent`: `<10-digit unix seconds><platform><os version>`, for example
/// `1761040954iOS18.0.0`. Its bytes key the `/8/secret` handshake and the `Accept-Id` header.
package enum BmobUserAgent {
    /// The platform name in the user agent.
    package static var platform: String {
        #if os(iOS)
        "iOS"
        #elseif os(macOS)
        "macOS"
        #elseif os(tvOS)
        "tvOS"
        #elseif os(watchOS)
        "watchOS"
        #elseif os(visionOS)
        "visionOS"
        #elseif os(Linux)
        "Linux"
        #else
        "unknown"
        #endif
    }

    /// The `User-Agent` of the SDK's requests outside the native protocol (the realtime handshake and its
    /// WebSocket): `BmobSwiftSDK/<release> (<platform> <os version>)`, for example
    /// `BmobSwiftSDK/1.1.0 (iOS 18.0.0)`. Native `/8/` requests send ``make(now:)`` instead, whose bytes key the
    /// protocol.
    package static var product: String {
        let version = ProcessInfo.processInfo.operatingSystemVersion
        let os = "\(version.majorVersion).\(version.minorVersion).\(version.patchVersion)"
        return "BmobSwiftSDK/\(BmobVersion.current) (\(platform) \(os))"
    }

    /// A user agent for the current time.
    package static func make(now: Date = Date()) -> String {
        let version = ProcessInfo.processInfo.operatingSystemVersion
        let seconds = String(Int64(now.timeIntervalSince1970))
        let padded = String(repeating: "0", count: max(0, 10 - seconds.count)) + seconds
        return "\(padded)\(platform)\(version.majorVersion).\(version.minorVersion).\(version.patchVersion)"
    }
}
