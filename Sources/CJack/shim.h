// JACK Audio Connection Kit client library, from Debian's libjack-jackd2-dev.
// Variadic C functions are not callable from Swift: wrap them here.
#include <jack/jack.h>

/// `jack_client_open` with an optional server name, without varargs.
static inline jack_client_t *bm_jack_client_open(const char *client_name, const char *server_name, int no_start_server,
                                                 jack_status_t *status) {
  jack_options_t options = no_start_server ? JackNoStartServer : JackNullOption;
  if (server_name != NULL && server_name[0] != 0) {
    return jack_client_open(client_name, (jack_options_t)(options | JackServerName), status, server_name);
  }
  return jack_client_open(client_name, options, status);
}
