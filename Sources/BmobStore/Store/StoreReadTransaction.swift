/// What a read can do, as services see it: the engine-neutral core (``StoreCoreReadTransaction``) and the
/// account and verification records (``StoreAccountReadTransaction``). Valid only inside the closure given to
/// ``Store/read(_:)`` or ``Store/write(caller:_:)``, on the thread that runs it.
package typealias StoreReadTransaction = StoreAccountReadTransaction & StoreCoreReadTransaction
