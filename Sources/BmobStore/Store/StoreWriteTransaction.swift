/// What a write can do, as services see it: the core's changes, each journaled in the same transaction
/// (``StoreCoreWriteTransaction``), and the account and verification records (``StoreAccountWriteTransaction``).
/// Valid only inside the closure given to ``Store/write(caller:_:)``.
package protocol StoreWriteTransaction: StoreAccountWriteTransaction, StoreCoreWriteTransaction, StoreReadTransaction {}
