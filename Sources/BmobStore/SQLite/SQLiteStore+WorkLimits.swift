extension SQLiteStore {
    /// How much work one query may do on an SQLite store: the engine-neutral ``StoreWorkLimits``, whose steps are
    /// SQLite virtual-machine instructions here (counted every ``SQLiteWorkBudget/progressInterval``).
    package typealias WorkLimits = StoreWorkLimits
}
