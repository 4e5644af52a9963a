#ifndef CSQLITE_H
#define CSQLITE_H

#include <sqlite3.h>

/// `SQLITE_TRANSIENT` is a macro casting -1 to a function pointer, which Swift cannot import.
static inline sqlite3_destructor_type CSQLite_TRANSIENT(void) { return SQLITE_TRANSIENT; }

/// `sqlite3_config` is variadic; these wrap the calls the store makes.
static inline int CSQLite_config_memstatus(int enabled) { return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, enabled); }

static inline int CSQLite_bind_text(sqlite3_stmt *statement, int index, const char *text, int length) {
    return sqlite3_bind_text(statement, index, text, length, SQLITE_TRANSIENT);
}

static inline int CSQLite_bind_blob(sqlite3_stmt *statement, int index, const void *bytes, int length) {
    return sqlite3_bind_blob(statement, index, bytes, length, SQLITE_TRANSIENT);
}

#endif
