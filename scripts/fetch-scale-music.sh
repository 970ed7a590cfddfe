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
# Packages and licences (each checked against its copyright file). Music packages give all their
# audio; game data packages only their music folders (the ERE after the licence text below):
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
#   0ad-data                   CC BY-SA 3.0 (audio/music/ inside public.zip)
#   btanks-data                GPL-2 with the Battle Tanks exception (data/tunes/)
#   colobot-common-sounds      GPL-3+ (music/)
#   extremetuxracer-data       GPL-2+ (music/)
#   fillets-ng-data            GPL-2 (music/)
#   flare-game                 CC BY-SA 3.0+ (mods/fantasycore/music/)
#   freedroidrpg-data          GPL-2+ (data/sound/music/)
#   hedgewars-data             GPL-2 (Data/Music/)
#   lincity-ng-data            GPL-2+ (music/)
#   lordsawar-data             GPL-3+ (music/)
#   megaglest-data             CC BY-SA 3.0 (the music/ folders but the Romans faction's: it is
#                              from Mattias Westlund's album Chronicles III, and he wrote music for
#                              Wesnoth that the yardstick airs; one of its recordings is DU004's)
#   naev-data                  GPL-2+, GPL-3+, CC BY 3.0 and CC BY-SA 3.0, per file (dat/snd/music/)
#   openclonk-data             ISC, CC BY 3.0 and CC0 (Music.ocg)
#   pushover-data              GPL-3+ (themes/)
#   redeclipse-data            CC BY-SA 3.0 (data/sounds/music/)
#   supertux-data              GPL-2+ (music/)
#   supertuxkart-data          CC BY-SA 3.0, CC BY-SA 4.0 and GPL, per file (data/music/)
#   tecnoballz-data            GPL-3+ (musics/)
#   trackballs-data            GPL-2+ and the Ethymonics Free Music Licence (music/)
#   warmux-data                GPL-2+ (music/)
#   widelands-data             GPL-2+ and CC BY-SA 3.0 (data/music/)
#   xmoto-data                 GPL-2+ (Textures/Musics/)
# Left out: xblast-tnt-musics (GPL-2+, but headerless .raw files of unknown format), and game
# packages with under 10 minutes of music. Debian 12's main archive holds no more than this that
# we found: 33 hours in 634 files.
# Never used here: wesnoth-1.16-music and fretsonfire-songs-muldjord, which the yardstick airs
# (they are the dev catalog and its unknown music).
set -euo pipefail

# package|text that its copyright file must contain|the paths to keep, an ERE on the file's path in the
# package (empty: every audio file)|for a package whose archives (.zip, .pk3) are large: the entries to
# unzip, an unzip pattern (empty: all)|the paths to leave out, an ERE (empty: none). No field holds a |.
PACKAGES=(
  "asc-music|License: GPL-2+"
  "drascula-music|License: Drascula-License"
  "fb-music-high|GNU General Public License, version 2 or later"
  "fretsonfire-songs-sectoid|Permission is hereby granted, free of charge"
  "hyperrogue-music|License: GPL-2+|/music/"
  "nexuiz-music|either version 2"
  "planetblupi-music-ogg|License: GPL-3+"
  "singularity-music|Attribution, ShareAlike"
  "ufoai-music|License: CC-BY-SA-3.0"
  "warzone2100-music|License: GPL-2+"
  "0ad-data|License: CC-BY-SA-3.0|/audio/music/|audio/music/*"
  "btanks-data|License: Battle-Tanks-License|/btanks/data/tunes/"
  "colobot-common-sounds|License: GPL-3+|/colobot/music/"
  "extremetuxracer-data|License: GPL-2+|/etr/music/"
  "fillets-ng-data|Free Software Foundation; version 2|/fillets-ng/music/"
  "flare-game|License: CC-BY-SA-3.0+|/mods/fantasycore/music/"
  "freedroidrpg-data|License: GPL-2+|/data/sound/music/"
  "hedgewars-data|License: GPL-2|/Data/Music/"
  "lincity-ng-data|License: GPL-2+|/lincity-ng/music/"
  "lordsawar-data|License: GPL-3+|/lordsawar/music/"
  "megaglest-data|License: CC-BY-SA-3.0|/music/||/factions/romans/"
  "naev-data|License: CC-BY-SA-3.0|/dat/snd/music/"
  "openclonk-data|Creative Commons Attribution 3.0|/Music\\.ocg/"
  "pushover-data|License: GPL-3+|/pushover/themes/"
  "redeclipse-data|License: CC-BY-SA-3.0|/data/sounds/music/"
  "supertux-data|License: GPL-2+|/supertux2/music/"
  "supertuxkart-data|License: CC-BY-SA-3.0|/supertuxkart/data/music/"
  "tecnoballz-data|License: GPL-3+|/tecnoballz/musics/"
  "trackballs-data|License: ETHYMONICS-FREE-MUSIC-LICENSE|/trackballs/music/"
  "warmux-data|either version 2 of the License|/warmux/music/"
  "widelands-data|License: GPL-2+|/widelands/data/music/"
  "xmoto-data|License: GPL-2+|/Textures/Musics/"
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
  IFS='|' read -r p licence keep inside leave <<<"$entry"
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
      if [[ "$f" == *.pk3 ]]; then
        unzip -q -o "$f" -d "$out/$(basename "$f" .pk3)" >&2
      elif [[ -n "$inside" && "$f" == *.zip ]]; then
        # Only archives with entries to unzip (unzip -Z1 lists them; it fails when there is none).
        if unzip -Z1 "$f" "$inside" >/dev/null 2>&1; then
          unzip -q -o "$f" "$inside" -d "$out/$(basename "$f" .zip)" >&2
        fi
      elif [[ "${f,,}" =~ $AUDIO_RE ]] && [[ -z "$keep" || "/$rel" =~ $keep ]] &&
        [[ -z "$leave" || ! "/$rel" =~ $leave ]]; then
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
