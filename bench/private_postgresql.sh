# Sourced by the PostgreSQL benchmarks: `start_private_postgresql NAME` starts a private PostgreSQL server (initdb +
# pg_ctl in a temporary folder named after NAME, on a free port of 127.0.0.1, as the postgres user under root,
# default settings: fsync on, synchronous commits) and sets PGBIN, PGDIR (the folder), PGPORT and PGSERVER
# (postgresql://bm@127.0.0.1:PORT, to which a database name is added); `stop_private_postgresql` stops it and
# removes the folder. The caller traps EXIT to call it (with its own clean-up first, if it has any).
# `create_private_database NAME` creates a database on it; `private_psql DATABASE SQL` runs SQL there and prints the
# rows unaligned, without headers. `start_private_play_log NAME` starts the server with a database `plays` for the
# nodes to write, and sets URL (its URL), WORK (a folder beside the server's, made) and `psql SQL` (private_psql there).

start_private_postgresql() {
  PGBIN=$(pg_config --bindir)
  PGDIR=$(mktemp -d "${TMPDIR:-/tmp}/bm-$1.XXXXXX")
  PGAS=()
  if [[ $(id -u) -eq 0 ]]; then
    chown postgres "$PGDIR"
    PGAS=(runuser -u postgres --)
  fi
  PGPORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  "${PGAS[@]}" "$PGBIN/initdb" -D "$PGDIR/data" -U bm -E UTF8 --locale=C --auth=trust >/dev/null
  "${PGAS[@]}" "$PGBIN/pg_ctl" -D "$PGDIR/data" -l "$PGDIR/server.log" -w -o \
    "-c listen_addresses=127.0.0.1 -c port=$PGPORT -c unix_socket_directories=$PGDIR" start >/dev/null
  until "$PGBIN/pg_isready" -h 127.0.0.1 -p "$PGPORT" -U bm >/dev/null; do sleep 0.1; done
  PGSERVER="postgresql://bm@127.0.0.1:$PGPORT"
  echo "PostgreSQL $("$PGBIN/postgres" --version | awk '{print $3}') on 127.0.0.1:$PGPORT"
}

create_private_database() {
  "${PGAS[@]}" "$PGBIN/createdb" -h "$PGDIR" -p "$PGPORT" -U bm "$1"
}

private_psql() {
  "$PGBIN/psql" -h 127.0.0.1 -p "$PGPORT" -U bm -d "$1" -X -A -t -q -c "$2"
}

stop_private_postgresql() {
  [[ -n "${PGDIR:-}" ]] || return 0
  "${PGAS[@]}" "$PGBIN/pg_ctl" -D "$PGDIR/data" -m fast -w stop >/dev/null 2>&1 || true
  rm -rf "$PGDIR"
}

start_private_play_log() {
  start_private_postgresql "$1"
  create_private_database plays
  URL="$PGSERVER/plays"
  psql() { private_psql plays "$1"; }
  WORK="$PGDIR/work"
  mkdir -p "$WORK"
}
