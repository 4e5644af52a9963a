// swift-tools-version:6.0
import Foundation
import PackageDescription

/// `BMOB_STRICT=1` (set by `make test`) turns warnings into errors and asks for explicit `Sendable`
/// on public types. Both need unsafe flags, which SwiftPM refuses in a dependency, so they stay opt-in.
let strict = ProcessInfo.processInfo.environment["BMOB_STRICT"] == "1"
/// `BMOB_EXCLUSIVITY=unchecked` (set by `make serve` and `make bench`) drops Swift's run-time exclusivity checks
/// from release builds: about 25 checks per request on the create path, each a thread-local access-set insert
/// (~4 % of its instructions). Debug builds, and so every test run, keep the checks, which is where a
/// violation would be caught. An environment switch rather than a fixed setting because SwiftPM refuses
/// unsafe flags in packages used as dependencies, and apps depend on this one for the SDK and BmobTesting.
let uncheckedExclusivity = ProcessInfo.processInfo.environment["BMOB_EXCLUSIVITY"] == "unchecked"
/// `BMOB_FUZZ=1` (set by `make fuzz`) adds the libFuzzer executables, which only link with `-sanitize=fuzzer`.
let fuzz = ProcessInfo.processInfo.environment["BMOB_FUZZ"] == "1"

/// `BMOB_SERVER_MACOS=1` (exported by the Makefile) raises the macOS floor from the SDK's 12 to the server's 15, for
/// building the server, its tests and `BmobTesting` on a Mac; see `platforms` below.
let serverOnMacOS = ProcessInfo.processInfo.environment["BMOB_SERVER_MACOS"] == "1"

/// Platforms without CommonCrypto, where BmobCrypto links OpenSSL.
let nonApple: [Platform] = [.linux, .android, .windows, .openbsd, .wasi]

var targets: [Target] = [
    // System libraries: a module map and one shim header each.
    .systemLibrary(name: "CSystemShims", path: "Sources/CSystemShims"),
    .systemLibrary(
        name: "CSQLite",
        path: "Sources/CSQLite",
        pkgConfig: "sqlite3",
        providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
    ),
    .systemLibrary(
        name: "CLibPQ",
        path: "Sources/CLibPQ",
        pkgConfig: "libpq",
        providers: [.apt(["libpq-dev"]), .brew(["libpq"])]
    ),
    .systemLibrary(
        name: "COpenSSL",
        path: "Sources/COpenSSL",
        pkgConfig: "openssl",
        providers: [.apt(["libssl-dev"]), .brew(["openssl"])]
    ),

    // Shared by SDK and server: pure codecs and values, no sockets, no threads.
    // BmobCrypto uses CommonCrypto on Apple platforms and OpenSSL everywhere else.
    .target(name: "BmobCrypto", dependencies: [.target(name: "COpenSSL", condition: .when(platforms: nonApple))]),
    .target(name: "BmobWire", dependencies: ["BmobCrypto"]),

    // SDK: Foundation only, plus BmobWire and BmobCrypto.
    .target(name: "BmobCore", dependencies: ["BmobWire", "BmobCrypto"]),
    .target(name: "BmobData", dependencies: ["BmobCore", "BmobWire"]),
    .target(name: "BmobUser", dependencies: ["BmobCore", "BmobData", "BmobWire"]),
    // Realtime: BmobEvent over socket.io 0.9. On Apple platforms URLSessionWebSocketTask; elsewhere our own
    // WebSocket client over POSIX sockets, with TLS through OpenSSL.
    .target(
        name: "BmobRealtime",
        dependencies: ["BmobCore", "BmobWire", "BmobCrypto", .target(name: "COpenSSL", condition: .when(platforms: nonApple))]
    ),
    // Files: BmobFile, the small-file upload and the resumable multipart uploader (S3's API, SigV4).
    .target(name: "BmobFile", dependencies: ["BmobCore", "BmobData", "BmobWire", "BmobCrypto"]),
    .target(name: "BmobCloud", dependencies: ["BmobCore", "BmobWire"]),
    // Bird Realtime: the Pusher-protocol channels client (prefix `bird`), over BmobRealtime's WebSocket transports.
    .target(name: "BirdRealtime", dependencies: ["BmobRealtime", "BmobWire"]),
    .target(name: "BmobSDK", dependencies: ["BmobCore", "BmobData", "BmobUser", "BmobRealtime", "BmobFile", "BmobCloud"]),
    // OnebaseClient: live queries, optimistic updates and the offline queue over the sync protocol (issue 21), on
    // BmobRealtime's WebSocket transports.
    .target(name: "OnebaseClient", dependencies: ["BmobWire", "BmobCrypto", "BmobRealtime"]),

    // Server.
    // Codecs only the server needs (the HTTP request decoder and response encoder, BQL, the bounded regex
    // engine), kept out of BmobWire so that the SDK does not ship them.
    .target(name: "BmobServerCodecs", dependencies: ["BmobWire"]),
    .target(name: "BmobIO", dependencies: ["CSystemShims"]),
    .target(name: "BmobHTTP", dependencies: ["BmobIO", "BmobWire", "BmobServerCodecs"]),
    .target(name: "BmobStore", dependencies: ["CSQLite", "CLibPQ", "BmobIO", "BmobWire", "BmobServerCodecs"]),
    // Console/Assets holds the web console's plain files; scripts/embed-console.sh compiles them in as Swift strings.
    .target(
        name: "BmobServer", dependencies: ["BmobHTTP", "BmobIO", "BmobStore", "BmobWire", "BmobServerCodecs"],
        exclude: ["Console/Assets"]),
    .executableTarget(name: "bmob", dependencies: ["BmobIO", "BmobServer", "BmobStore"]),
    // BmobRealtime for the scripted WebSocket transport that the realtime clients' tests share.
    .target(
        name: "BmobTesting", dependencies: ["BmobServer", "BmobHTTP", "BmobIO", "BmobWire", "BmobServerCodecs", "BmobRealtime"]),

    // Test support: a child process that the crash test kills mid-write.
    .executableTarget(
        name: "bmob-crash-writer",
        dependencies: ["BmobStore", "BmobWire"],
        path: "Tests/Support/CrashWriter"
    ),

    // Test support: an app that the SDK's resume test kills mid-upload.
    .executableTarget(
        name: "bmob-upload-client",
        dependencies: ["BmobCore", "BmobFile"],
        path: "Tests/Support/UploadClient"
    ),

    // Benchmarks: the raw SQLite reference and the realtime fan-out client that `make bench` runs beside the server.
    .executableTarget(name: "bmob-bench", dependencies: ["CSQLite", "BmobIO", "BmobWire", "BmobCrypto", "BmobStore"], path: "Benchmarks/Sources/bmob-bench"),

    .testTarget(name: "BmobCryptoTests", dependencies: ["BmobCrypto"]),
    .testTarget(name: "BmobWireTests", dependencies: ["BmobWire", "BmobCrypto", "BmobServerCodecs"]),
    // BmobRealtime for the live chat test (BmobEventChatIntegrationTests), where the SDK's README puts it.
    .testTarget(name: "BmobCoreTests", dependencies: ["BmobCore", "BmobRealtime", "BmobWire", "BmobCrypto", "BmobTesting"]),
    .testTarget(name: "BmobRealtimeTests", dependencies: ["BmobRealtime", "BmobCore", "BmobWire", "BmobCrypto", "BmobTesting", "BmobIO"]),
    .testTarget(
        name: "BirdRealtimeTests",
        dependencies: ["BirdRealtime", "BmobRealtime", "BmobWire", "BmobCrypto", "BmobTesting", "BmobServer"]
    ),
    .testTarget(name: "EndToEndTests", dependencies: ["BmobSDK", "BmobCore", "BmobData", "BmobUser", "BmobRealtime", "BmobFile", "BmobCloud", "BmobTesting", "BmobWire", "BmobStore", "BmobServer", "bmob-upload-client"]),
    .testTarget(
        name: "OnebaseClientTests",
        dependencies: ["OnebaseClient", "BmobWire", "BmobRealtime", "BmobTesting", "BmobServer"]
    ),
    .testTarget(name: "BmobIOTests", dependencies: ["BmobIO", "CSystemShims"]),
    .testTarget(name: "BmobHTTPTests", dependencies: ["BmobHTTP", "BmobIO", "BmobTesting", "BmobWire", "BmobServerCodecs"]),
    // Fixtures/ holds data files that the tests read from the source tree (the $regex differential corpus).
    .testTarget(
        name: "BmobStoreTests",
        dependencies: ["BmobStore", "BmobWire", "BmobServerCodecs", "BmobTesting", "BmobIO", "bmob-crash-writer"],
        exclude: ["Fixtures"]
    ),
    .testTarget(name: "BmobServerTests", dependencies: ["BmobServer", "BmobStore", "BmobTesting", "BmobHTTP", "BmobIO", "BmobWire", "BmobServerCodecs", "bmob"]),
]

if fuzz {
    let fuzzTargets = [
        "HTTPParser", "WhereParser", "BQLParser", "Regex",
        "NativeEnvelope", "WebSocketFrame", "SocketIOPacket", "S3XML", "SigV4Authorization", "PusherFrame", "SyncMessage",
        "PusherClusterMessage",
    ]
    for name in fuzzTargets {
        targets.append(
            .executableTarget(
                name: "Fuzz\(name)", dependencies: ["BmobWire", "BmobServerCodecs"], path: "Fuzz/\(name)", exclude: ["corpus"]))
    }
}

let package = Package(
    name: "BmobSwiftSDK",
    // The SDK products' floor, as the seeds give it: iOS 15 and macOS 12 (the Bmob SDK, OnebaseClient), tvOS 15 and
    // watchOS 8 (the realtime clients). `platforms` is package-wide; an app builds only the targets of the products
    // it uses, so the server targets, which need macOS 15 on a Mac (Synchronization's Mutex and Atomic, task
    // executors), are built there with BMOB_SERVER_MACOS=1. On Linux the floor does not apply.
    platforms: [.macOS(serverOnMacOS ? .v15 : .v12), .iOS(.v15), .tvOS(.v15), .watchOS(.v8)],
    products: [
        .library(name: "BmobSDK", targets: ["BmobSDK"]),
        .library(name: "BmobCore", targets: ["BmobCore"]),
        .library(name: "BmobData", targets: ["BmobData"]),
        .library(name: "BmobUser", targets: ["BmobUser"]),
        .library(name: "BmobRealtime", targets: ["BmobRealtime"]),
        .library(name: "BirdRealtime", targets: ["BirdRealtime"]),
        .library(name: "OnebaseClient", targets: ["OnebaseClient"]),
        .library(name: "BmobFile", targets: ["BmobFile"]),
        .library(name: "BmobCloud", targets: ["BmobCloud"]),
        .executable(name: "bmob", targets: ["bmob"]),
        .library(name: "BmobServer", targets: ["BmobServer"]),
        .library(name: "BmobTesting", targets: ["BmobTesting"]),
    ],
    targets: targets,
    swiftLanguageModes: [.v6]
)

// Strict settings in one loop over every Swift target.
for target in package.targets where target.type != .system {
    var settings = target.swiftSettings ?? []
    settings += [
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("MemberImportVisibility"),
        .enableUpcomingFeature("InternalImportsByDefault"),
        .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
    ]
    if uncheckedExclusivity {
        settings.append(.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release)))
    }
    if strict {
        settings.append(.unsafeFlags(["-warnings-as-errors", "-require-explicit-sendable"]))
    }
    target.swiftSettings = settings
}
