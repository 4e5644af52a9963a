/// The release of Bmob Swift. The server and the SDK ship together from one repository, so they share one number:
/// the SDK's realtime `User-Agent` (`BmobSwiftSDK/<version>`), the server's `GET /1/serverInfo` `version`, the
/// podspec and the newest release in `CHANGELOG.md` all report it (`scripts/check-podspec.sh` checks the last two).
package enum BmobVersion {
    /// The current release, `major.minor.patch`.
    package static let current = "1.1.0"
}
