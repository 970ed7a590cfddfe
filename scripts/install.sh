#!/usr/bin/env bash
# Installs broadcast-monitor as a system service on Debian 12 / Ubuntu:
#
#   sudo scripts/install.sh [--prefix DIR] [--destdir DIR] [--binary FILE] [--dry-run]
#
#   PREFIX/bin/broadcast-monitor                         the release build (swift build -c release)
#   PREFIX/share/man/man1/broadcast-monitor.1            the man page
#   PREFIX/share/bash-completion/completions/broadcast-monitor, PREFIX/share/zsh/site-functions/_broadcast-monitor
#   /etc/systemd/system/broadcast-monitor.service        the hardened unit, its ExecStart pointing at PREFIX/bin
#   /etc/broadcast-monitor/monitor.json5                 the example configuration, only when there is none yet
#   the system user and group broadcast-monitor (in the audio group, for JACK), and its state folder
#   /var/lib/broadcast-monitor (0750), where the catalog and the play log go
#
# Idempotent: run it again after an update; it replaces the binary, man page, completions and unit, and never
# touches an existing configuration, user or play log. It does not enable or start the service: it prints the
# commands that do.
#
# Options:
#   --prefix DIR    where the binary, man page and completions go (default /usr/local)
#   --destdir DIR   install into DIR as if it were / (a staging root for packaging or tests; or DESTDIR=DIR): no
#                   user is created, nothing is chowned, and systemd is not told
#   --binary FILE   install FILE instead of building the release binary
#   --dry-run       print what would be done, do nothing
set -Eeuo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$(pwd)

PREFIX=/usr/local
DESTDIR="${DESTDIR:-}"  # the make convention: DESTDIR=/tmp/stage scripts/install.sh
BINARY=""
DRY_RUN=0
SERVICE_USER=broadcast-monitor
UNIT_DIR=/etc/systemd/system
CONFIG_DIR=/etc/broadcast-monitor
STATE_DIR=/var/lib/broadcast-monitor

usage() {
  sed -n '2,/^set -Eeuo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'
}

while [[ $# -gt 0 ]]; do
  case "$1" in
    --prefix) PREFIX="${2:?--prefix needs a folder}"; shift 2 ;;
    --prefix=*) PREFIX="${1#*=}"; shift ;;
    --destdir) DESTDIR="${2:?--destdir needs a folder}"; shift 2 ;;
    --destdir=*) DESTDIR="${1#*=}"; shift ;;
    --binary) BINARY="${2:?--binary needs a file}"; shift 2 ;;
    --binary=*) BINARY="${1#*=}"; shift ;;
    --dry-run) DRY_RUN=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "install.sh: unknown option $1 (see --help)" >&2; exit 64 ;;
  esac
done
if [[ "$PREFIX" != /* ]]; then
  echo "install.sh: --prefix $PREFIX is not an absolute path; give one such as /usr/local" >&2
  exit 64
fi
if [[ -n "$DESTDIR" && "$DESTDIR" != /* ]]; then
  DESTDIR="$ROOT/$DESTDIR"
fi

# Prints a command, and runs it unless this is a dry run.
run() {
  printf '+ %s\n' "$*"
  if [[ $DRY_RUN -eq 0 ]]; then "$@"; fi
}

if [[ -z "$DESTDIR" && $DRY_RUN -eq 0 && $(id -u) -ne 0 ]]; then
  echo "install.sh: installing into / needs root: run it with sudo, or give --destdir DIR (or --dry-run)" >&2
  exit 77
fi

# 1. The binary: the release build, unless one is given. Under sudo it is built as the user who called sudo, so
# that the checkout's .build folder stays theirs.
if [[ -z "$BINARY" ]]; then
  if ! command -v swift >/dev/null 2>&1; then PATH="/opt/swift/usr/bin:$PATH"; fi
  BUILD_AS=()
  if [[ $(id -u) -eq 0 && -n "${SUDO_USER:-}" ]]; then BUILD_AS=(sudo -u "$SUDO_USER" env "PATH=$PATH"); fi
  run "${BUILD_AS[@]}" swift build -c release --product broadcast-monitor
  BINARY="$ROOT/.build/release/broadcast-monitor"
fi
if [[ $DRY_RUN -eq 0 && ! -x "$BINARY" ]]; then
  echo "install.sh: $BINARY is not an executable; build it with swift build -c release" >&2
  exit 66
fi

# 2. Binary, man page, completions (replaced on every run).
run install -D -m 755 "$BINARY" "$DESTDIR$PREFIX/bin/broadcast-monitor"
run install -D -m 644 share/man/man1/broadcast-monitor.1 "$DESTDIR$PREFIX/share/man/man1/broadcast-monitor.1"
run install -D -m 644 share/bash-completion/completions/broadcast-monitor \
  "$DESTDIR$PREFIX/share/bash-completion/completions/broadcast-monitor"
run install -D -m 644 share/zsh/site-functions/_broadcast-monitor "$DESTDIR$PREFIX/share/zsh/site-functions/_broadcast-monitor"

# 3. The unit, with ExecStart at the installed binary.
printf '+ install the unit as %s (ExecStart %s)\n' "$DESTDIR$UNIT_DIR/broadcast-monitor.service" \
  "$PREFIX/bin/broadcast-monitor"
if [[ $DRY_RUN -eq 0 ]]; then
  mkdir -p "$DESTDIR$UNIT_DIR"
  sed "s|^ExecStart=/usr/local/bin/broadcast-monitor |ExecStart=$PREFIX/bin/broadcast-monitor |" \
    config/broadcast-monitor.service >"$DESTDIR$UNIT_DIR/broadcast-monitor.service.new"
  chmod 644 "$DESTDIR$UNIT_DIR/broadcast-monitor.service.new"
  mv "$DESTDIR$UNIT_DIR/broadcast-monitor.service.new" "$DESTDIR$UNIT_DIR/broadcast-monitor.service"
fi

# 4. The configuration: the example, only when there is none (an edited one is never replaced).
if [[ -e "$DESTDIR$CONFIG_DIR/monitor.json5" ]]; then
  echo "= $DESTDIR$CONFIG_DIR/monitor.json5 exists: kept as it is"
else
  run install -D -m 644 config/monitor.example.json5 "$DESTDIR$CONFIG_DIR/monitor.json5"
fi

# 5. The system user (in the audio group, for JACK) and its state folder.
if [[ -n "$DESTDIR" ]]; then
  echo "= --destdir: no user created (create it on the target: useradd --system --user-group --groups audio" \
    "--home-dir $STATE_DIR --shell /usr/sbin/nologin $SERVICE_USER)"
  run install -d -m 750 "$DESTDIR$STATE_DIR"
else
  if getent passwd "$SERVICE_USER" >/dev/null; then
    echo "= user $SERVICE_USER exists: kept as it is"
  else
    groups=()
    if getent group audio >/dev/null; then groups=(--groups audio); fi
    run useradd --system --user-group "${groups[@]}" --home-dir "$STATE_DIR" --no-create-home \
      --shell /usr/sbin/nologin --comment "broadcast-monitor airplay monitor" "$SERVICE_USER"
  fi
  run install -d -m 750 -o "$SERVICE_USER" -g "$SERVICE_USER" "$STATE_DIR"
  if [[ -d /run/systemd/system ]]; then
    run systemctl daemon-reload
  fi
fi

cat <<EOF

broadcast-monitor is installed${DESTDIR:+ under $DESTDIR}. Next:
  1. build a catalog as the service user, into the state folder:
       sudo -u $SERVICE_USER $PREFIX/bin/broadcast-monitor catalog add --catalog $STATE_DIR/catalog.bmcat MUSIC_FOLDER
  2. edit $CONFIG_DIR/monitor.json5 (the channels), and check it:
       sudo -u $SERVICE_USER $PREFIX/bin/broadcast-monitor run --config $CONFIG_DIR/monitor.json5 --log
  3. start it, now and at every boot, and follow its log:
       sudo systemctl enable --now broadcast-monitor && journalctl -u broadcast-monitor -f
  After editing the configuration: sudo systemctl reload broadcast-monitor (channels added or removed start or
  stop; the others run on).
EOF
if [[ $DRY_RUN -eq 1 ]]; then echo "(dry run: nothing was changed)"; fi
