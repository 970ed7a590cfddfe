// libsoxr, the SoX resampler library, from Debian's libsoxr-dev.
#include <soxr.h>
