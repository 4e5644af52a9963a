/// What a read can do, as services see it: the engine-neutral core (``StoreCoreReadTransaction``) and the
/// account and verification records (``StoreAccountReadTransaction``). Valid only inside the closure given to
/// ``Store/read(_:)`` or ``Store/write(caller:_:)``, on the thread that runs it.
///
/// A protocol of its own rather than a composition (`StoreCoreReadTransaction & StoreAccountReadTransaction`),
/// so that `any StoreReadTransaction` is an existential with one witness table, as cheap to pass as before the
/// split.
package protocol StoreReadTransaction: StoreAccountReadTransaction, StoreCoreReadTransaction {}
