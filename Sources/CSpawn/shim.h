#ifndef CSPAWN_SHIM_H
#define CSPAWN_SHIM_H

#include <spawn.h>

// glibc (2.34 and later) declares this only under _GNU_SOURCE, which Swift's Glibc module is built without: the
// declaration is repeated here. It adds a file action that closes every descriptor from `lowest` up in the child,
// in one step and with no race against other threads opening descriptors while the child starts.
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int lowest);

// Closes every descriptor above standard error in a child started with these file actions: it inherits only its
// standard streams, whatever the parent (or the program that started the parent) holds open without close-on-exec.
static inline int cspawn_close_inherited(posix_spawn_file_actions_t *actions) {
  return posix_spawn_file_actions_addclosefrom_np(actions, 3);
}

#endif
