import BmobCore
import BmobWire
import Foundation

/// A ``BmobQuery``'s state, shared by every copy of the query.
///
/// Thread safety: every member is read and written only while `lock` is held, which makes the
/// `@unchecked Sendable` sound.
final class BmobQueryState: @unchecked Sendable {
    let lock = NSLock()
    /// The `where` object: field → value (equality) or operator object; `$or` / `$and` members.
    var conditions: [String: JSONValue] = [:]
    /// A condition that could not be encoded; running the query throws it.
    var conditionError: BmobError?
    var orderKeys: [String] = []
    var limitValue: Int?
    var skipValue: Int?
    var selectedKeys: [String]?
    var includedKeys: [String] = []
    var statisticsMode = false
    var groupByKeys: [String] = []
    var groupCountValue = false
    var sumKeys: [String] = []
    var averageKeys: [String] = []
    var maxKeys: [String] = []
    var minKeys: [String] = []
    var havingCondition: JSONValue?
    var policy: BmobCachePolicy = .ignoreCache
    var cacheAge: TimeInterval = 24 * 60 * 60
    var clientValue: BmobClient = .shared
}
