// SQLite 3, from Debian's libsqlite3-dev.
// Variadic C functions are not callable from Swift: wrap them here.
#include <sqlite3.h>

/// `sqlite3_config(SQLITE_CONFIG_MULTITHREAD)` without varargs.
static inline int bm_sqlite3_config_multithread(void) { return sqlite3_config(SQLITE_CONFIG_MULTITHREAD); }
