#ifndef CPREFETCH_SHIM_H
#define CPREFETCH_SHIM_H

// A software prefetch (the compiler's builtin; Swift has none): asks the processor to bring the cache line of `address`
// in for reading, without waiting for it. Unlike a load, it never stalls the instructions after it, so a loop of them
// puts many memory misses in flight at once. A hint only: any address is allowed, and nothing is read.
static inline void cprefetch_read(const void *address) { __builtin_prefetch(address, 0, 3); }

#endif
