/// Bmob's third-party login platform names (the keys of `authData`).
package enum AuthPlatforms {
    /// The platforms Bmob documents.
    package static let known = ["weibo", "qq", "weixin", "apple", "weapp", "qqapp", "toutiao", "anonymous"]
}
