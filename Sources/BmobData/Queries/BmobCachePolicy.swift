/// Where ``BmobQuery`` reads results from. Every policy except ``ignoreCache`` and ``cacheOnly`` stores the
/// network's answer in the on-disk cache.
public enum BmobCachePolicy: Sendable, Hashable {
    /// The network only; the cache is neither read nor written (the default).
    case ignoreCache
    /// The cache only; a query never cached throws ``BmobError/serverError(code:message:)`` with code 120.
    case cacheOnly
    /// The network only, and the answer is cached.
    case networkOnly
    /// The cache when it holds an answer younger than ``BmobQuery/maxCacheAge``, the network otherwise.
    case cacheElseNetwork
    /// The network; when it fails (no connection, timeout), the cache if it holds an answer.
    case networkElseCache
    /// The cached answer at once when there is one, while a network request refreshes the cache in the
    /// background for the next call; the network's answer when nothing is cached yet.
    case cacheThenNetwork
}
