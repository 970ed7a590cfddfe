// GNU libmicrohttpd, from Debian's libmicrohttpd-dev: the embedded HTTP server of `run`'s API.
// Variadic C functions and macros are not usable from Swift: wrap them here.
#include <stdarg.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <microhttpd.h>

/// `MHD_CONTENT_READER_END_OF_STREAM` and `MHD_CONTENT_READER_END_WITH_ERROR` (cast macros Swift cannot import).
static const ssize_t bm_mhd_end_of_stream = MHD_CONTENT_READER_END_OF_STREAM;
static const ssize_t bm_mhd_end_with_error = MHD_CONTENT_READER_END_WITH_ERROR;

/// Starts a daemon on an already listening socket: one thread per connection (a slow client holds only its own
/// thread), at most `connection_limit` connections, idle connections closed after `timeout_seconds`. `accept`
/// decides whether a new connection may open, and `notify` hears each connection open and close (all three
/// callbacks get `handler_cls`).
static inline struct MHD_Daemon *bm_mhd_start_thread_per_connection(
    int listen_fd, unsigned int connection_limit, unsigned int timeout_seconds,
    MHD_AccessHandlerCallback handler, MHD_AcceptPolicyCallback accept, MHD_NotifyConnectionCallback notify,
    void *handler_cls) {
  return MHD_start_daemon(
      MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL, 0, accept, handler_cls, handler,
      handler_cls, MHD_OPTION_LISTEN_SOCKET, (MHD_socket)listen_fd, MHD_OPTION_CONNECTION_LIMIT, connection_limit,
      MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds, MHD_OPTION_NOTIFY_CONNECTION, notify, handler_cls,
      MHD_OPTION_END);
}

/// The client's address (`MHD_get_connection_info` with `MHD_CONNECTION_INFO_CLIENT_ADDRESS`), NULL if unknown.
static inline const struct sockaddr *bm_mhd_client_address(struct MHD_Connection *connection) {
  const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
  return info == NULL ? NULL : info->client_addr;
}

/// `MHD_SIZE_UNKNOWN`: a response whose length is not known in advance (chunked in HTTP/1.1).
static const uint64_t bm_mhd_size_unknown = MHD_SIZE_UNKNOWN;
