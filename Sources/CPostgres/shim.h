// libpq, PostgreSQL's client library, from Debian's libpq-dev (headers in /usr/include/postgresql, found through
// pkg-config's libpq.pc). No variadic function of libpq is used, so nothing needs wrapping.
#include <libpq-fe.h>
