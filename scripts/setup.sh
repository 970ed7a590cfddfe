#!/usr/bin/env bash
# Sets up a fresh Debian 12 / Ubuntu machine for broadcast-monitor, builds it and runs the demo.
#
#   bash scripts/setup.sh
#
# Idempotent: run it again at any time. Steps:
#   1. system packages (apt-get, as root or through sudo; skipped when all are installed)
#   2. Swift 6.x toolchain (on PATH or in /opt/swift/usr/bin; not installed by this script)
#   3. release build of the broadcast-monitor command
#   4. the demo (scripts/demo.sh); skip it with BM_SETUP_NO_DEMO=1
#
# Environment:
#   BM_SETUP_NO_DEMO=1     do not run the demo
#   BM_SETUP_FORCE_APT=1   run apt-get update/install even when every package is present
set -Eeuo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$(pwd)

# Debian packages the project needs, and why:
#   libfftw3-dev        FFT for the fingerprinter (single precision)
#   libsqlite3-dev      the play log database
#   libsoxr-dev         resampling any input rate to the matcher's rate
#   libxxhash-dev       XXH3, the checksum that every catalog load verifies over the whole file
#   libjack-jackd2-dev  live capture from sound cards through JACK
#   jackd2              the JACK server (and jack_lsp), for live capture and its tests
#   ffmpeg              decoding files and streams (run as a subprocess)
#   sqlite3             command-line access to the play log; the demo reads its CSV with it
#   icecast2            a private local stream server for the network-stream tests (its system service is
#                       disabled right after the install: it would listen on port 8000 with a default password)
#   tmux                the console view's tests run the monitor in a tmux pane and read its screen
#   libmicrohttpd-dev   the HTTP server of `run` (API, /metrics, /healthz): an embedded C server on its own threads
#   libsystemd-dev      sd_notify for systemd's Type=notify and watchdog
#   prometheus          promtool, which the tests use to check /metrics (its system service is disabled right after
#                       the install: the tests need only the tool)
#   libpq-dev           PostgreSQL's client library, for a play log that several monitors share
#   postgresql          the server, for the PostgreSQL play log's tests (each starts a private one with initdb and
#                       pg_ctl in a temporary folder; the package's own cluster service is not needed)
#   chromium, chromium-driver, python3-venv
#                       the dashboard's browser test (Tests/Browser): headless Chromium driven by Selenium, which
#                       comes from PyPI into .build/test-venv (below)
PACKAGES=(libfftw3-dev libsqlite3-dev libsoxr-dev libxxhash-dev libjack-jackd2-dev jackd2 ffmpeg sqlite3 icecast2 tmux zsh
  libmicrohttpd-dev libsystemd-dev prometheus chromium chromium-driver python3-venv libpq-dev postgresql)
# Python packages from PyPI for the tests, in a virtual environment of the checkout's own (neither the system's
# Python nor anyone's pyenv is changed): Selenium drives Debian's Chromium in the dashboard's browser test.
TEST_VENV="$ROOT/.build/test-venv"
TEST_PYTHON_PACKAGES=(selenium==4.51.0)

STEP="start"
step() {
  STEP="$1"
  printf '\n==> setup: %s\n' "$STEP"
}
on_error() {
  local rc=$?
  printf '\n*** setup.sh FAILED at step "%s" (exit code %d)\n' "$STEP" "$rc" >&2
  exit "$rc"
}
trap on_error ERR

# ---------------------------------------------------------------------------
step "1/4 system packages"
missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
if [[ ${#missing[@]} -eq 0 && "${BM_SETUP_FORCE_APT:-0}" != "1" ]]; then
  echo "all present: ${PACKAGES[*]}"
else
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "apt-get not found: this script supports Debian 12 and Ubuntu. Install by hand: ${PACKAGES[*]}" >&2
    false
  fi
  SUDO=()
  if [[ $(id -u) -ne 0 ]]; then
    if command -v sudo >/dev/null 2>&1; then
      SUDO=(sudo)
    else
      echo "not root and sudo is not installed: run this script as root, or install: ${PACKAGES[*]}" >&2
      false
    fi
  fi
  echo "missing: ${missing[*]:-none}"
  echo "+ ${SUDO[*]:+${SUDO[*]} }apt-get update"
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update
  echo "+ ${SUDO[*]:+${SUDO[*]} }apt-get install -y --no-install-recommends ${PACKAGES[*]}"
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y --no-install-recommends "${PACKAGES[@]}"
  if [[ " ${missing[*]} " == *" icecast2 "* ]]; then
    # The tests start their own Icecast on a free port; the package's service is not wanted.
    echo "+ disabling the icecast2 system service (the tests run a private one)"
    if command -v systemctl >/dev/null 2>&1 && [[ -d /run/systemd/system ]]; then
      "${SUDO[@]}" systemctl disable --now icecast2 || true
    else
      "${SUDO[@]}" update-rc.d icecast2 disable >/dev/null 2>&1 || true
      "${SUDO[@]}" invoke-rc.d icecast2 stop >/dev/null 2>&1 || true
    fi
  fi
  if [[ " ${missing[*]} " == *" prometheus "* ]]; then
    echo "+ disabling the prometheus system service (the tests use only promtool)"
    if command -v systemctl >/dev/null 2>&1 && [[ -d /run/systemd/system ]]; then
      "${SUDO[@]}" systemctl disable --now prometheus || true
    else
      "${SUDO[@]}" update-rc.d prometheus disable >/dev/null 2>&1 || true
      "${SUDO[@]}" invoke-rc.d prometheus stop >/dev/null 2>&1 || true
    fi
  fi
fi
if ! "$TEST_VENV/bin/python" -c 'import selenium' >/dev/null 2>&1; then
  echo "+ python3 -m venv $TEST_VENV && pip install ${TEST_PYTHON_PACKAGES[*]}"
  python3 -m venv "$TEST_VENV"
  "$TEST_VENV/bin/pip" install --quiet --disable-pip-version-check "${TEST_PYTHON_PACKAGES[@]}"
else
  echo "test tools present: $TEST_VENV (${TEST_PYTHON_PACKAGES[*]})"
fi

# ---------------------------------------------------------------------------
step "2/4 Swift toolchain"
if ! command -v swift >/dev/null 2>&1 && [[ -x /opt/swift/usr/bin/swift ]]; then
  export PATH="/opt/swift/usr/bin:$PATH"
  echo "using /opt/swift/usr/bin (added to PATH for this script; add it to your shell's PATH too)"
fi
if ! command -v swift >/dev/null 2>&1; then
  cat >&2 <<'EOF'
Swift was not found (neither on PATH nor at /opt/swift/usr/bin/swift).
broadcast-monitor needs the Swift 6.x toolchain for Linux. Install it from
https://www.swift.org/install/linux/ : either with swiftly, or download the
Debian 12 (or your Ubuntu release) tarball, install the packages the page lists,
and unpack it so that /opt/swift/usr/bin/swift exists, e.g.
  mkdir -p /opt/swift && tar -xzf swift-6.*-RELEASE-debian12.tar.gz -C /opt/swift --strip-components=1
Then run this script again.
EOF
  false
fi
swift_version=$(swift --version 2>&1 | sed -n 's/.*Swift version \([0-9][0-9.]*\).*/\1/p' | head -n 1)
echo "swift: $(command -v swift), version ${swift_version:-unknown}"
if [[ -z "$swift_version" || "${swift_version%%.*}" -lt 6 ]]; then
  echo "Swift 6.x is required (found: ${swift_version:-unknown}). Install it from https://www.swift.org/install/linux/" >&2
  false
fi

# ---------------------------------------------------------------------------
step "3/4 release build"
echo "+ swift build -c release --product broadcast-monitor"
swift build -c release --product broadcast-monitor
echo "built: $ROOT/.build/release/broadcast-monitor"

# ---------------------------------------------------------------------------
step "4/4 demo"
if [[ "${BM_SETUP_NO_DEMO:-0}" == "1" ]]; then
  echo "skipped (BM_SETUP_NO_DEMO=1)"
else
  echo "+ bash scripts/demo.sh"
  BM_DEMO_NO_BUILD=1 bash scripts/demo.sh
fi

STEP="done"
printf '\n==> setup: done. The command is %s/.build/release/broadcast-monitor\n' "$ROOT"
