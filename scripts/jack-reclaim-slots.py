#!/usr/bin/env python3
"""Frees the JACK server slots held by servers that are no longer running.

JACK 2 keeps a registry of running servers in /dev/shm/jack-shm-registry with room for 8 (MAX_SERVERS in
jack2's common/shm.c). A jackd that exits normally frees its slot; one that is killed (SIGKILL, a crash, a machine
that stops a test run midway) keeps it. jackd reclaims a dead server's slot only when a server of the same name
starts again, so servers with fresh names (`jackd -n bmtest-<pid>-<n>` in the tests, the benchmarks' private
servers) never get those slots back. Once all 8 are held, every jackd stops at start with

    Too many servers already active
    Failed to open server

until the machine reboots. This script clears the slots whose process is gone, under JACK's own registry lock
(the System V semaphore 0x282929 that jackd and libjack take), and removes those servers' sockets and semaphores
from /dev/shm. Slots of running servers are left alone, so it is safe while other servers run.

    python3 scripts/jack-reclaim-slots.py          # reclaim, one line per slot freed
    python3 scripts/jack-reclaim-slots.py --check  # only list the slots; exit status 1 when the registry is full

Run as the user the servers ran as (root in CI): a slot's owner is found with kill(pid, 0).
"""

import argparse
import ctypes
import ctypes.util
import errno
import mmap
import os
import struct
import sys

REGISTRY_PATH = "/dev/shm/jack-shm-registry"
SHM_DIRECTORY = "/dev/shm"
# jack2 common/shm.c and shm.h: the registry lock's key, the number of server slots, a slot's name length.
REGISTRY_LOCK_KEY = 0x282929
MAX_SERVERS = 8
# jack_shm_header_t: magic, protocol, type, size, hdr_len, entry_len (4 bytes each, with padding), then the
# MAX_SERVERS server slots: a pid_t and the name, `jack-<uid>:<server>:` (264 bytes a slot in Debian 12's JACK 2;
# the slot size is read from hdr_len).
HEADER_FORMAT = "<4sHxxiIII"
SLOTS_OFFSET = struct.calcsize(HEADER_FORMAT)
JACK_MAGIC = b"KCAJ"  # 0x4A41434B ('JACK') stored little-endian
LOCK_TIMEOUT_SECONDS = 10
SEM_UNDO = 0x1000


class SemaphoreOperation(ctypes.Structure):
    _fields_ = [("sem_num", ctypes.c_ushort), ("sem_op", ctypes.c_short), ("sem_flg", ctypes.c_short)]


class TimeSpec(ctypes.Structure):
    _fields_ = [("tv_sec", ctypes.c_long), ("tv_nsec", ctypes.c_long)]


class RegistryLock:
    """JACK's registry lock: the semaphore that jackd and libjack decrement around every registry change."""

    def __init__(self):
        self.libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
        self.semaphore = self.libc.semget(REGISTRY_LOCK_KEY, 0, 0)

    def _add(self, value, timeout_seconds=None):
        operation = SemaphoreOperation(0, value, SEM_UNDO)
        timeout = TimeSpec(timeout_seconds, 0) if timeout_seconds is not None else None
        result = self.libc.semtimedop(
            self.semaphore, ctypes.byref(operation), 1, ctypes.byref(timeout) if timeout else None
        )
        if result != 0:
            code = ctypes.get_errno()
            if code == errno.EAGAIN:
                raise SystemExit(
                    f"jack-reclaim-slots: JACK's registry lock (semaphore 0x{REGISTRY_LOCK_KEY:x}) was held for "
                    f"{LOCK_TIMEOUT_SECONDS} s; a JACK process may be stuck holding it: see `ipcs -s -i "
                    f"{self.semaphore}`"
                )
            raise SystemExit(f"jack-reclaim-slots: semop on JACK's registry lock: {os.strerror(code)}")

    def __enter__(self):
        # No semaphore means no JACK process has locked the registry since boot: nothing to exclude.
        if self.semaphore != -1:
            self._add(-1, LOCK_TIMEOUT_SECONDS)
        return self

    def __exit__(self, *exc):
        if self.semaphore != -1:
            self._add(1)


def process_is_running(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's live process
    return True


def server_name(prefix):
    """`jack-0:bmtest-12-3:` → ("0", "bmtest-12-3")."""
    parts = prefix.split(":")
    if len(parts) >= 3 and parts[0].startswith("jack-"):
        return parts[0][len("jack-"):], ":".join(parts[1:-1])
    return None, prefix


def leftover_files(uid, name):
    """A dead server's socket files (`jack_<name>_<uid>_…`) and semaphores (`jack_sem.<uid>_<name>_…`)."""
    prefixes = (f"jack_{name}_{uid}_", f"jack_sem.{uid}_{name}_")
    try:
        entries = os.listdir(SHM_DIRECTORY)
    except OSError:
        return []
    return [os.path.join(SHM_DIRECTORY, e) for e in entries if e.startswith(prefixes)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="list the slots only; exit 1 when all are held")
    args = parser.parse_args()

    if not os.path.exists(REGISTRY_PATH):
        print(f"jack-reclaim-slots: no {REGISTRY_PATH}: no JACK server has run since boot, nothing to reclaim")
        return 0
    if os.path.getsize(REGISTRY_PATH) < SLOTS_OFFSET:
        raise SystemExit(f"jack-reclaim-slots: {REGISTRY_PATH} is too short to be JACK 2's registry: with no jackd "
                         "running, delete it (jackd makes a new one)")
    try:
        registry_file = open(REGISTRY_PATH, "r+b")
    except PermissionError:
        raise SystemExit(f"jack-reclaim-slots: cannot write {REGISTRY_PATH}: run as its owner or root")
    with registry_file, mmap.mmap(registry_file.fileno(), 0) as registry, RegistryLock():
        magic, _protocol, _type, size, header_bytes, _entry_bytes = struct.unpack_from(HEADER_FORMAT, registry, 0)
        slot_bytes = (header_bytes - SLOTS_OFFSET) // MAX_SERVERS
        if (magic != JACK_MAGIC or size != len(registry) or slot_bytes < 8
                or header_bytes != SLOTS_OFFSET + MAX_SERVERS * slot_bytes or header_bytes > len(registry)):
            raise SystemExit(f"jack-reclaim-slots: {REGISTRY_PATH} is not the JACK 2 registry layout this script "
                             f"knows (magic {magic!r}, header {header_bytes} bytes): leave it alone")
        held, freed = 0, 0
        for slot in range(MAX_SERVERS):
            offset = SLOTS_OFFSET + slot * slot_bytes
            (pid,) = struct.unpack_from("<i", registry, offset)
            if pid == 0:
                continue
            raw_name = bytes(registry[offset + 4: offset + slot_bytes]).split(b"\0", 1)[0]
            uid, name = server_name(raw_name.decode("utf-8", "replace"))
            if process_is_running(pid):
                held += 1
                if args.check:
                    print(f"slot {slot}: server '{name}' (pid {pid}) running")
                continue
            if args.check:
                held += 1
                print(f"slot {slot}: server '{name}' (pid {pid}) is gone but holds its slot")
                continue
            registry[offset: offset + slot_bytes] = bytes(slot_bytes)
            freed += 1
            removed = 0
            for path in leftover_files(uid, name) if uid is not None else []:
                try:
                    os.remove(path)
                    removed += 1
                except OSError:
                    pass
            print(f"jack-reclaim-slots: freed slot {slot} of server '{name}' (pid {pid} is gone); "
                  f"removed {removed} of its files in {SHM_DIRECTORY}")
    if args.check:
        print(f"{held} of {MAX_SERVERS} JACK server slots held")
        return 1 if held >= MAX_SERVERS else 0
    print(f"jack-reclaim-slots: {freed} slot(s) freed; {held} of {MAX_SERVERS} held by running servers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
