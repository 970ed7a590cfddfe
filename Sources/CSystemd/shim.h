// libsystemd, from Debian's libsystemd-dev: sd_notify(3) for `Type=notify` and the watchdog.
#include <systemd/sd-daemon.h>
