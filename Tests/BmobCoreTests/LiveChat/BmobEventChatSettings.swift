import Foundation

/// What the live chat test needs from the environment, or `nil` (the test is skipped) unless
/// `BMOB_EVENT_CHAT_LIVE_TEST=1` and both keys are set.
///
/// - `BMOB_EVENT_APP_KEY` (or `BMOB_EVENT_CHAT_APP_KEY`): the test app's Application ID.
/// - `BMOB_EVENT_REST_KEY` (or `BMOB_EVENT_CHAT_REST_KEY`): its REST API Key, for the record made through REST.
/// - `BMOB_EVENT_CHAT_DOMAIN`, optional: the server (`http(s)://host[:port]`) for the SDK and for REST, such as a
///   local `bmob serve`; without it the SDK uses its default domain and REST goes to ``defaultRESTDomain``.
/// - `BMOB_EVENT_CHAT_REST_DOMAIN`, optional: another address for REST only.
/// - `BMOB_EVENT_CHAT_IO_DOMAIN`, optional: the realtime address (`Bmob.resetIODomain`); without it, the one the
///   server's init answer gives.
struct BmobEventChatSettings: Equatable {
    /// Where REST goes on Bmob's cloud when no domain is given.
    static let defaultRESTDomain = "https://api.bmobcloud.com"

    let appKey: String
    let restKey: String
    /// The SDK's domain, or `nil` for its default.
    let domain: String?
    /// Where the REST calls go, without a trailing `/`.
    let restDomain: String
    /// The realtime address, or `nil` for the server's.
    let ioDomain: String?

    /// The settings of this process's environment.
    static var current: BmobEventChatSettings? { BmobEventChatSettings(environment: ProcessInfo.processInfo.environment) }

    /// The settings in `environment`; `nil` unless the live test is switched on and both keys are present.
    init?(environment: [String: String]) {
        func value(_ names: String...) -> String? {
            for name in names {
                if let text = environment[name]?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty {
                    return text
                }
            }
            return nil
        }
        guard value("BMOB_EVENT_CHAT_LIVE_TEST") == "1",
            let appKey = value("BMOB_EVENT_APP_KEY", "BMOB_EVENT_CHAT_APP_KEY"),
            let restKey = value("BMOB_EVENT_REST_KEY", "BMOB_EVENT_CHAT_REST_KEY")
        else { return nil }
        self.appKey = appKey
        self.restKey = restKey
        domain = value("BMOB_EVENT_CHAT_DOMAIN")
        var rest = value("BMOB_EVENT_CHAT_REST_DOMAIN") ?? domain ?? Self.defaultRESTDomain
        while rest.hasSuffix("/") { rest.removeLast() }
        restDomain = rest
        ioDomain = value("BMOB_EVENT_CHAT_IO_DOMAIN")
    }
}
