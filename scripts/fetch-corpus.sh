#!/usr/bin/env bash
# Downloads the Debian music packages that the accuracy yardstick (bench/yardstick.sh) builds its
# corpus from, into a cache folder outside the repository:
#
#   bash scripts/fetch-corpus.sh        # -> ${EVAL_DEBS:-$HOME/.cache/bmon-eval/debs}
#
# The packages are only downloaded (apt-get download), not installed. Already downloaded ones are
# kept. Prints the folder on stdout as its last line.
set -euo pipefail

PACKAGES=(wesnoth-1.16-music fretsonfire-songs-muldjord)
DEBS="${EVAL_DEBS:-$HOME/.cache/bmon-eval/debs}"

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DEBS=$(realpath -m "$DEBS")
case "$DEBS/" in
  "$ROOT"/*)
    echo "fetch-corpus.sh: $DEBS is inside the repository; set EVAL_DEBS to a folder outside it" >&2
    exit 2
    ;;
esac
mkdir -p "$DEBS"

missing=()
for p in "${PACKAGES[@]}"; do
  if compgen -G "$DEBS/${p}_*.deb" >/dev/null; then
    echo "have $(basename "$(compgen -G "$DEBS/${p}_*.deb" | head -n 1)")" >&2
  else
    missing+=("$p")
  fi
done

if [[ ${#missing[@]} -gt 0 ]]; then
  echo "+ (cd $DEBS && apt-get download ${missing[*]})" >&2
  if ! (cd "$DEBS" && apt-get download "${missing[@]}"); then
    echo "apt-get download failed. If apt says it cannot locate a package, run 'apt-get update' first" >&2
    echo "(as root); the packages are in Debian 12's main archive." >&2
    exit 1
  fi
fi
echo "$DEBS"
