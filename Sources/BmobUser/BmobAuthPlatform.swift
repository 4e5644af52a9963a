/// A third-party login platform: the key of its entry in `authData`.
public enum BmobAuthPlatform: Sendable, Hashable {
    /// WeChat (`weixin`).
    case wechat
    /// QQ (`qq`).
    case qq
    /// Weibo (`weibo`).
    case weibo
    /// Sign in with Apple (`apple`).
    case apple
    /// A WeChat mini program (`weapp`).
    case wechatMiniProgram
    /// Any other platform configured on the server, by its `authData` key.
    case custom(String)

    /// The platform's key in `authData`.
    public var key: String {
        switch self {
        case .wechat: "weixin"
        case .qq: "qq"
        case .weibo: "weibo"
        case .apple: "apple"
        case .wechatMiniProgram: "weapp"
        case .custom(let key): key
        }
    }
}
