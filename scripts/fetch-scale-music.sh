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
# (Quake-style .pk3 archives are unzipped), and its tracker modules (.xm, .mod, .it, .s3m) rendered
# to FLAC once: ffmpeg renders some modules (through libopenmpt) with randomness, other samples on
# every decode (pingus-data's pingus-3.it, pingus-5.it and sorcerer.it), so catalogs built from
# the modules themselves differed from build to build. They are rendered at 16 kHz mono, what
# `Benchmarks build-scale-catalog` decodes every file to (ScaleCatalogBuild.decodeRateHz): 0.9 GB
# instead of 3.5 GB at the renderer's 48 kHz stereo. Nothing is installed. Prints the music folder
# on stdout as its last line.
#
# Packages and licences (each checked against its copyright file). Music packages give all their
# audio; game data packages only their music folders (the ERE after the licence text below):
#   asc-music                  GPL-2+
#   drascula-music             Drascula licence (BSD-like, DFSG-free; Debian main)
#   fb-music-high              GPL-2+
#   fretsonfire-songs-sectoid  Expat (MIT)
#   heroes-sound-tracks        GPL-2+
#   hyperrogue-music           GPL-2+ (music/ only; the sound effects in sounds/ are left out)
#   nexuiz-music               GPL-2+
#   planetblupi-music-ogg      GPL-3+
#   singularity-music          CC BY-SA 3.0
#   ufoai-music                GPL-2+, CC BY 3.0 and CC BY-SA 3.0, per file
#   warzone2100-music          GPL-2+
#   0ad-data                   CC BY-SA 3.0 (audio/music/ inside public.zip)
#   amoebax-data               Free Art License 1.2 (music/)
#   ardentryst                 CC BY-SA 3.0 (Music/)
#   berusky2-data              GPL-2+ (music/)
#   biniax2-data               zlib (music/)
#   bomberclone-data           GPL-2 (music/)
#   btanks-data                GPL-2 with the Battle Tanks exception (data/tunes/)
#   bugsquish                  GPL-2 (music/)
#   circuslinux-data           GPL (data/music/)
#   colobot-common-sounds      GPL-3+ (music/)
#   enigma-data                GPL-2 (music/)
#   extremetuxracer-data       GPL-2+ (music/)
#   fillets-ng-data            GPL-2 (music/)
#   flare-game                 CC BY-SA 3.0+ (mods/fantasycore/music/)
#   flobopuyo                  GPL-2+ (the .xm modules in sfx/)
#   freecol                    CC BY 4.0 (default/resources/music/)
#   freedink-data              CC BY-SA 3.0, CC BY 3.0, GPL-3+, the EFF Open Audio License and
#                              public domain, per file (the .ogg recordings in dink/Sound/; its
#                              MIDI files are left out)
#   freedroid-data             GPL-2+ (the .mod modules in sound/)
#   freedroidrpg-data          GPL-2+ (data/sound/music/)
#   frozen-bubble-data         GPL-2 (snd/*zik*.ogg but frozen-mainzik-2p.ogg, a rendering of
#                              fb-music-high's frozen-mainzik-2p.xm)
#   gigalomania-data           CC BY 3.0 (music/)
#   gl-117-data                GPL-2 (music/)
#   hedgewars-data             GPL-2 (Data/Music/)
#   hex-a-hop-data             CC BY-SA 3.0 (music-*.ogg)
#   ironseed-data              GPL-3+ (sound/, but CARGO.MOD, a byte-for-byte copy of GAME.MOD)
#   lincity-ng-data            GPL-2+ (music/)
#   lordsawar-data             GPL-3+ (music/)
#   madbomber-data             GPL-2 (music/)
#   marsshooter-data           CC BY-SA 3.0 (audio/music/, audio/menu.ogg and audio/tutorial.ogg)
#   megaglest-data             CC BY-SA 3.0 (the music/ folders but the Romans faction's: it is
#                              from Mattias Westlund's album Chronicles III, and he wrote music for
#                              Wesnoth that the yardstick airs; one of its recordings is DU004's)
#   miceamaze                  CC BY 3.0 (music/)
#   naev-data                  GPL-2+, GPL-3+, CC BY 3.0 and CC BY-SA 3.0, per file (dat/snd/music/)
#   neverball-common           GPL-2+ (bgm/)
#   njam-data                  GPL-2+ (the .xm and .s3m modules in data/)
#   open-invaders-data         GPL-2+ (the .mod modules)
#   openclonk-data             ISC, CC BY 3.0 and CC0 (Music.ocg)
#   pachi-data                 GPL-2+ (music/)
#   pathological               GPL-2+ (music/)
#   pekka-kana-2-data          BSD-2-Clause (data/music/)
#   penguin-command            GPL-2+ (the .s3m modules in sound/)
#   pinball-table-gnu-data     CC BY-SA 3.0 (gnu/music.ogg)
#   pingus-data                GPL-2+ (data/music/)
#   plee-the-bear-data         CC BY-SA 3.0 (music/, but the layers in music/sequencer/)
#   powermanga-data            GPL-3+ (sound/handheld_console/music_*)
#   pushover-data              GPL-3+ (themes/)
#   rafkill-data               LGPL-2 (music/ and data/*.mod)
#   redeclipse-data            CC BY-SA 3.0 (data/sounds/music/)
#   ri-li-data                 GPL-2 or GPL-3 (the modules in Sounds/)
#   rockdodger                 GPL-2+ (the .mod modules)
#   starfighter-data           GPL-2+ (music/)
#   supertux-data              GPL-2+ (music/)
#   supertuxkart-data          CC BY-SA 3.0, CC BY-SA 4.0 and GPL, per file (data/music/)
#   tecnoballz-data            GPL-3+ (musics/)
#   tomatoes-data              zlib (music/)
#   torcs-data                 GPL-2+ (data/music/)
#   trackballs-data            GPL-2+ and the Ethymonics Free Music Licence (music/)
#   tuxmath-data               public domain and CC BY-SA 3.0, per file (the music in sounds/)
#   unknown-horizons           CC BY-SA 3.0 (content/audio/music/)
#   vodovod                    GPL-2+ (the .xm modules)
#   warmux-data                GPL-2+ (music/)
#   widelands-data             GPL-2+ and CC BY-SA 3.0 (data/music/)
#   wizznic-data               GPL-3 (packs/000_wizznic/music/)
#   wordwarvi-sound            CC BY-SA 3.0 (the three *mono*.ogg recordings in sounds/)
#   xmoto-data                 GPL-2+ (Textures/Musics/)
#   zaz-data                   CC BY-SA 3.0 (mus*.ogg)
# Left out: xblast-tnt-musics (GPL-2+, but headerless .raw files of unknown format); game packages
# with under 5 minutes of music (angrydd, gltron, gunroar-data, mu-cade-data, scorched3d-data,
# seahorse-adventures, titanion-data, torus-trooper-data, vectoroids and smaller ones);
# davegnukem-data (its copyright file does not name its Eric Matyas recordings or their licence);
# gemdropx (of its four modules, two are "used with permission" and two have no licence);
# tuxtype-data (its music is tuxmath-data's); and MIDI files (simutrans-data, openttd-openmsx,
# freedink-data's and a few more: about 4.4 hours), which ffmpeg cannot decode. Debian 12's main
# archive holds no more than this that we found: 46 hours in 952 files (33 hours in 634 files
# without heroes-sound-tracks and the 43 game data packages added with it).
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
  "heroes-sound-tracks|License: GPL-2+"
  "hyperrogue-music|License: GPL-2+|/music/"
  "nexuiz-music|either version 2"
  "planetblupi-music-ogg|License: GPL-3+"
  "singularity-music|Attribution, ShareAlike"
  "ufoai-music|License: CC-BY-SA-3.0"
  "warzone2100-music|License: GPL-2+"
  "0ad-data|License: CC-BY-SA-3.0|/audio/music/|audio/music/*"
  "amoebax-data|License: Free-Art-License-1.2|/amoebax/music/"
  "ardentryst|License: CC-BY-SA-3.0|/ardentryst/Music/"
  "berusky2-data|License: GPL-2+|/berusky2/music/"
  "biniax2-data|License: ZLib|/biniax2/music/"
  "bomberclone-data|License: GPL-2|/bomberclone/music/"
  "btanks-data|License: Battle-Tanks-License|/btanks/data/tunes/"
  "bugsquish|License: GPL-2|/bugsquish/music/"
  "circuslinux-data|distributed under the GNU GENERAL PUBLIC LICENSE|/circuslinux/data/music/"
  "colobot-common-sounds|License: GPL-3+|/colobot/music/"
  "enigma-data|Free Software Foundation; version 2 dated June, 1991|/enigma/music/"
  "extremetuxracer-data|License: GPL-2+|/etr/music/"
  "fillets-ng-data|Free Software Foundation; version 2|/fillets-ng/music/"
  "flare-game|License: CC-BY-SA-3.0+|/mods/fantasycore/music/"
  "flobopuyo|either version 2 of the License|/flobopuyo/sfx/[^/]*\\.xm$"
  "freecol|License: CC-BY-4.0|/freecol/default/resources/music/"
  "freedink-data|Creative Commons 3.0 Attribution ShareAlike|/dink/dink/Sound/[^/]*\\.ogg$"
  "freedroid-data|License: GPL-2+|/freedroid/sound/[^/]*\\.mod$"
  "freedroidrpg-data|License: GPL-2+|/data/sound/music/"
  "frozen-bubble-data|License: GPL-2|/frozen-bubble/snd/[^/]*zik[^/]*\\.ogg$||/frozen-mainzik-2p\\.ogg$"
  "gigalomania-data|License: CC-BY-3.0|/gigalomania/music/"
  "gl-117-data|License: GPL-2|/gl-117/music/"
  "hedgewars-data|License: GPL-2|/Data/Music/"
  "hex-a-hop-data|License: CC-BY-SA-3.0|/hex-a-hop/music-"
  "ironseed-data|License: GPL-3+|/ironseed/sound/||/CARGO\\.MOD$"
  "lincity-ng-data|License: GPL-2+|/lincity-ng/music/"
  "lordsawar-data|License: GPL-3+|/lordsawar/music/"
  "madbomber-data|License: GPL-2|/madbomber/music/"
  "marsshooter-data|License: CC-BY-SA-3.0|/marsshooter/audio/.*\\.ogg$"
  "megaglest-data|License: CC-BY-SA-3.0|/music/||/factions/romans/"
  "miceamaze|License: CC-BY-3.0|/miceamaze/music/"
  "naev-data|License: CC-BY-SA-3.0|/dat/snd/music/"
  "neverball-common|License: GPL-2+|/neverball/bgm/"
  "njam-data|License: GPL-2.0+|/njam/data/||\\.wav$"
  "open-invaders-data|License: GPL-2+|/open-invaders/[^/]*\\.mod$"
  "openclonk-data|Creative Commons Attribution 3.0|/Music\\.ocg/"
  "pachi-data|either version 2 of the License|/pachi/music/"
  "pathological|License: GPL-2+|/pathological/music/"
  "pekka-kana-2-data|License: BSD-2-Clause|/pekka-kana-2/data/music/"
  "penguin-command|License: GPL-2.0+|/penguin-command/sound/[^/]*\\.s3m$"
  "pinball-table-gnu-data|License: CC-BY-SA-3.0|/pinball/gnu/music\\.ogg$"
  "pingus-data|either version 2 of the License|/pingus/data/music/"
  "plee-the-bear-data|Creative Commons paternity share alike|/plee-the-bear/music/||/music/sequencer/"
  "powermanga-data|License: GPL-3+|/powermanga/sound/handheld_console/music_"
  "pushover-data|License: GPL-3+|/pushover/themes/"
  "rafkill-data|License: LGPL-2|/games/rafkill/"
  "redeclipse-data|License: CC-BY-SA-3.0|/data/sounds/music/"
  "ri-li-data|License: GPL-2 or GPL-3|/Ri-li/Sounds/||\\.wav$"
  "rockdodger|either version 2 of the License|/rockdodger/[^/]*\\.mod$"
  "starfighter-data|License: GPL-2+|/starfighter/music/"
  "supertux-data|License: GPL-2+|/supertux2/music/"
  "supertuxkart-data|License: CC-BY-SA-3.0|/supertuxkart/data/music/"
  "tecnoballz-data|License: GPL-3+|/tecnoballz/musics/"
  "tomatoes-data|License: Zlib|/tomatoes/music/"
  "torcs-data|License: GPL-2+|/torcs/data/music/"
  "trackballs-data|License: ETHYMONICS-FREE-MUSIC-LICENSE|/trackballs/music/"
  "tuxmath-data|License: CC-BY-SA-3.0|/tuxmath/sounds/||\\.wav$"
  "unknown-horizons|License: CC-BY-SA-3.0|/content/audio/music/"
  "vodovod|License: GPL-2+|/vodovod/[^/]*\\.xm$"
  "warmux-data|either version 2 of the License|/warmux/music/"
  "widelands-data|License: GPL-2+|/widelands/data/music/"
  "wizznic-data|License: GPL-3|/000_wizznic/music/"
  "wordwarvi-sound|License: CC-BY-SA-3.0|/wordwarvi/sounds/[^/]*mono[^/]*\\.ogg$"
  "xmoto-data|License: GPL-2+|/Textures/Musics/"
  "zaz-data|License: CC-BY-SA-3.0|/zaz/mus[0-9]*\\.ogg$"
)
AUDIO_RE='\.(ogg|oga|opus|mp3|flac|wav|xm|mod|it|s3m)$'
MODULE_RE='\.(xm|mod|it|s3m)$'
# What a package's music/PACKAGE/.complete holds: a folder made by an earlier version of this
# script (modules not rendered) is made again.
LAYOUT="modules rendered to FLAC, 16 kHz mono"

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
  if [[ "$(cat "$out/.complete" 2>/dev/null)" != "$LAYOUT" ]]; then
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
    find "$out" -type f -regextype posix-extended ! -iregex ".*$AUDIO_RE" -delete
    while IFS= read -r -d '' m; do
      if ! ffmpeg -nostdin -v error -i "$m" -ac 1 -ar 16000 -c:a flac -f flac "$m.flac.tmp" >&2; then
        echo "left out $m: ffmpeg cannot render it" >&2
        rm -f "$m.flac.tmp"
      else
        mv "$m.flac.tmp" "$m.flac"
      fi
      rm -f "$m"
    done < <(find "$out" -type f -regextype posix-extended -iregex ".*$MODULE_RE" -print0)
    echo "$LAYOUT" >"$out/.complete"
  fi
  echo "have $p: $(find "$out" -type f ! -name .complete | wc -l) audio files ($licence)" >&2
  kept=$((kept + 1))
done
if ((kept == 0)); then
  echo "fetch-scale-music.sh: no package passed its licence check" >&2
  exit 1
fi
echo "$MUSIC"
