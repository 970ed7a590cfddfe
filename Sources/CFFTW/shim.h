// FFTW single precision (libfftw3f), from Debian's libfftw3-dev.
// Plans must be created from one thread; executing a plan on separate aligned buffers is thread-safe.
#include <fftw3.h>
