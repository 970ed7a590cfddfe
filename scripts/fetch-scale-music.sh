#!/usr/bin/env bash
# Downloads freely licensed music from Debian's archive for the catalog-scale benchmark
# (bench/catalog_scale.py): real recordings that the accuracy yardstick never airs, used as
# distractors that make the catalog large. Everything goes to a cache folder outside the repository:
#
#   bash scripts/fetch-scale-music.sh    # -> ${BM_SCALE_CACHE:-$HOME/.cache/bmon-scale}/music
#
# Steps per package: apt-get download (debs/), dpkg -x (extract/), a check that the package's
# /usr/share/doc/*/copyright still states the licence listed below (a package whose licence
# changed is skipped with a message), then its music files are linked into music/PACKAGE/
# (Quake-style .pk3 archives are unzipped). Nothing is installed. Prints the music folder on
# stdout as its last line.
#
# Packages and licences (each checked against its copyright file):
#   asc-music                  GPL-2+
#   drascula-music             Drascula licence (BSD-like, DFSG-free; Debian main)
#   fb-music-high              GPL-2+
#   fretsonfire-songs-sectoid  Expat (MIT)
#   hyperrogue-music           GPL-2+ (music/ only; the sound effects in sounds/ are left out)
#   nexuiz-music               GPL-2+
#   planetblupi-music-ogg      GPL-3+
#   singularity-music          CC BY-SA 3.0
#   ufoai-music                GPL-2+, CC BY 3.0 and CC BY-SA 3.0, per file
#   warzone2100-music          GPL-2+
# Left out: xblast-tnt-musics (GPL-2+, but headerless .raw files of unknown format).
# Never used here: wesnoth-1.16-music and fretsonfire-songs-muldjord, which the yardstick airs
# (they are the dev catalog and its unknown music).
set -euo pipefail

# package|text that its copyright file must contain
PACKAGES=(
  "asc-music|License: GPL-2+"
  "drascula-music|License: Drascula-License"
  "fb-music-high|GNU General Public License, version 2 or later"
  "fretsonfire-songs-sectoid|Permission is hereby granted, free of charge"
  "hyperrogue-music|License: GPL-2+"
  "nexuiz-music|either version 2"
  "planetblupi-music-ogg|License: GPL-3+"
  "singularity-music|Attribution, ShareAlike"
  "ufoai-music|License: CC-BY-SA-3.0"
  "warzone2100-music|License: GPL-2+"
)
AUDIO_RE='\.(ogg|oga|opus|mp3|flac|wav|xm|mod|it|s3m)$'

CACHE="${BM_SCALE_CACHE:-$HOME/.cache/bmon-scale}"
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=$(realpath -m "$CACHE")
case "$CACHE/" in
  "$ROOT"/*)
    echo "fetch-scale-music.sh: $CACHE is inside the repository; set BM_SCALE_CACHE to a folder outside it" >&2
    exit 2
    ;;
esac
DEBS="$CACHE/debs"
EXTRACT="$CACHE/extract"
MUSIC="$CACHE/music"
mkdir -p "$DEBS" "$EXTRACT" "$MUSIC"
command -v unzip >/dev/null 2>&1 || {
  echo "fetch-scale-music.sh needs unzip (apt-get install -y unzip)" >&2
  exit 2
}

missing=()
for entry in "${PACKAGES[@]}"; do
  p="${entry%%|*}"
  compgen -G "$DEBS/${p}_*.deb" >/dev/null || missing+=("$p")
done
if [[ ${#missing[@]} -gt 0 ]]; then
  echo "+ (cd $DEBS && apt-get download ${missing[*]})" >&2
  if ! (cd "$DEBS" && apt-get download "${missing[@]}" >&2); then
    echo "apt-get download failed. If apt says it cannot locate a package, run 'apt-get update' first" >&2
    echo "(as root); the packages are in Debian 12's main archive." >&2
    exit 1
  fi
fi

kept=0
for entry in "${PACKAGES[@]}"; do
  p="${entry%%|*}"
  licence="${entry#*|}"
  deb=$(compgen -G "$DEBS/${p}_*.deb" | sort | tail -n 1)
  x="$EXTRACT/$(basename "$deb" .deb)"
  if [[ ! -d "$x" ]]; then
    dpkg -x "$deb" "$x.tmp"
    mv "$x.tmp" "$x"
  fi
  copyright="$x/usr/share/doc/$p/copyright"
  if [[ ! -f "$copyright" ]] || ! grep -qF "$licence" "$copyright"; then
    echo "skipped $p: its copyright file no longer says \"$licence\"; check its licence and update this script" >&2
    rm -rf "${MUSIC:?}/$p"
    continue
  fi
  out="$MUSIC/$p"
  if [[ ! -f "$out/.complete" ]]; then
    rm -rf "$out"
    mkdir -p "$out"
    while IFS= read -r -d '' f; do
      rel="${f#"$x"/}"
      case "$p:$rel" in hyperrogue-music:*/sounds/*) continue ;; esac
      if [[ "$f" == *.pk3 ]]; then
        unzip -q -o "$f" -d "$out/$(basename "$f" .pk3)" >&2
      elif [[ "${f,,}" =~ $AUDIO_RE ]]; then
        ln -f "$f" "$out/$(echo "$rel" | tr / _)" 2>/dev/null || cp "$f" "$out/$(echo "$rel" | tr / _)"
      fi
    done < <(find "$x" -type f ! -path '*/usr/share/doc/*' -print0)
    # Only audio is kept from unzipped archives.
    find "$out" -type f ! -regextype posix-extended ! -iregex ".*$AUDIO_RE" -delete
    touch "$out/.complete"
  fi
  echo "have $p: $(find "$out" -type f ! -name .complete | wc -l) audio files ($licence)" >&2
  kept=$((kept + 1))
done
if ((kept == 0)); then
  echo "fetch-scale-music.sh: no package passed its licence check" >&2
  exit 1
fi
echo "$MUSIC"
