#!/usr/bin/env python3
"""A playout of catalog songs from their first sample, for live_latency.py: the issue's "catalog song fed through JACK".

    python3 bench/catalog_playout.py [--out DIR] [--channels 2] [--seconds 40] [--seed 1] [--sped-up FRACTION]
                                     [--tracks tracks.csv]
    python3 bench/live_latency.py --minutes 21 --sim DIR

Writes DIR/ch01.wav, DIR/ch02.wav, ... (48 kHz stereo float) and DIR/truth.csv in the format of ../shared/eval's
simulations, so that live_latency.py measures it exactly as it measures a simulated radio day. Each channel plays
every track of the dev corpus once, in its own shuffled order, as a station's playout system airs a song: from its
audible start (the cue-in point, where the yardstick's simulations also start a song aired whole: the first 10 ms
above -60 dBFS, from the corpus's analysis.json), at its own level and speed, nothing talked or mixed over it. Each song is cut after
SECONDS (with a 0.5 s fade) and the next one starts on the next sample, so that a 20-minute run sees every song start
on every channel. Only the starts are measured; a full-length playout of the dev catalog would take 1.8 hours.

--sped-up FRACTION speeds that fraction of the songs up by 1-4 %, half of them resampled (pitch up) and half
time-stretched by ffmpeg's atempo (pitch kept), as the yardstick's `radio` profile does to 35 % of its songs.

This is the easy end of what a station airs. The yardstick's `radio` simulations add noise, fades, crossfades, speed
changes and a DJ talking over intros; live_latency.py on those is the harder figure, and both are reported.
"""
import argparse
import csv
import json
import os
import random
import subprocess
import sys
import tempfile

import numpy as np

from livebench import TRACKS, require

RATE = 48000
FADE_SECONDS = 0.5


def decode(path, start, seconds):
    """`seconds` of `path` from `start`, 48 kHz stereo float32, shape (frames, 2)."""
    raw = subprocess.run(["ffmpeg", "-v", "error", "-ss", f"{start:.3f}", "-i", path, "-t", str(seconds), "-f", "f32le",
                          "-ac", "2", "-ar", str(RATE), "-"], check=True, capture_output=True).stdout
    return np.frombuffer(raw, dtype=np.float32).reshape(-1, 2).copy()


def change_speed(audio, speed, resampled):
    """`audio` played `speed` times as fast: resampled (pitch follows) or time-stretched by atempo (pitch kept)."""
    change = f"asetrate={RATE * speed:.3f},aresample={RATE}" if resampled else f"atempo={speed:.5f}"
    raw = subprocess.run(["ffmpeg", "-v", "error", "-f", "f32le", "-ar", str(RATE), "-ac", "2", "-i", "-", "-af",
                          change, "-f", "f32le", "-ar", str(RATE), "-ac", "2", "-"], input=audio.tobytes(), check=True,
                         capture_output=True).stdout
    return np.frombuffer(raw, dtype=np.float32).reshape(-1, 2).copy()


def write_wav(path, audio):
    """A 32-bit float WAV (format 3), which ffmpeg and broadcast-monitor read."""
    data = audio.astype("<f4").tobytes()
    header = b"RIFF" + (36 + len(data)).to_bytes(4, "little") + b"WAVEfmt " + (16).to_bytes(4, "little")
    header += (3).to_bytes(2, "little") + (2).to_bytes(2, "little") + RATE.to_bytes(4, "little")
    header += (RATE * 8).to_bytes(4, "little") + (8).to_bytes(2, "little") + (32).to_bytes(2, "little")
    header += b"data" + len(data).to_bytes(4, "little")
    with open(path, "wb") as f:
        f.write(header)
        f.write(data)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=os.path.join(tempfile.gettempdir(), "bm-catalog-playout"))
    ap.add_argument("--channels", type=int, default=2)
    ap.add_argument("--seconds", type=float, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--sped-up", type=float, default=0, help="fraction of songs sped up 1-4 %% (default 0)")
    ap.add_argument("--tracks", default=TRACKS)
    args = ap.parse_args()
    require("catalog_playout", [(args.tracks, "bash bench/yardstick.sh")])
    corpus = os.path.dirname(os.path.abspath(args.tracks))
    rows = list(csv.DictReader(open(args.tracks, newline="")))
    analysis = json.load(open(os.path.join(corpus, "analysis.json")))
    cue = {row["track_id"]: float(analysis[row["track_id"]]["audible_start_s"]) for row in rows}
    os.makedirs(args.out, exist_ok=True)

    excerpts, speeds = {}, {}
    speeder = random.Random(args.seed + 1000)
    for n, row in enumerate(rows, 1):
        print(f"\rcatalog_playout: decoding {n}/{len(rows)} {row['title']:<30}", end="", file=sys.stderr, flush=True)
        speed, resampled = 1.0, False
        if speeder.random() < args.sped_up:
            speed, resampled = round(1 + speeder.uniform(0.01, 0.04), 4), speeder.random() < 0.5
        audio = decode(os.path.join(corpus, row["path"]), cue[row["track_id"]], args.seconds * speed + 1)
        if speed != 1:
            audio = change_speed(audio, speed, resampled)
        audio = audio[:int(args.seconds * RATE)]
        fade = min(int(FADE_SECONDS * RATE), len(audio))
        audio[len(audio) - fade:] *= np.linspace(1, 0, fade, dtype=np.float32)[:, None]
        excerpts[row["track_id"]], speeds[row["track_id"]] = audio, (speed, resampled)
    print(file=sys.stderr)

    truth = []
    shuffler = random.Random(args.seed)
    for number in range(1, args.channels + 1):
        channel = f"ch{number:02d}"
        order = [row["track_id"] for row in rows]
        shuffler.shuffle(order)
        parts, start = [], 0
        for track_id in order:
            audio = excerpts[track_id]
            speed, resampled = speeds[track_id]
            truth.append(dict(channel=channel, track_id=track_id, start_s=f"{start / RATE:.3f}",
                              end_s=f"{(start + len(audio)) / RATE:.3f}", ref_start_s=f"{cue[track_id]:.3f}",
                              speed=f"{speed:.4f}", pitch_preserved="0" if resampled else "1",
                              ref_end_s=f"{cue[track_id] + len(audio) * speed / RATE:.3f}", mode="playout",
                              voiceover="none", snr_db="", fade_in_s="0.00", xfade_in_s="0.00"))
            parts.append(audio)
            start += len(audio)
        write_wav(os.path.join(args.out, f"{channel}.wav"), np.concatenate(parts))
        print(f"catalog_playout: {channel}: {len(order)} songs, {start / RATE / 60:.1f} min", file=sys.stderr)
    with open(os.path.join(args.out, "truth.csv"), "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(truth[0]))
        writer.writeheader()
        writer.writerows(truth)
    print(f"catalog_playout: wrote {args.out}; measure it with: python3 bench/live_latency.py --minutes "
          f"{int(start / RATE / 60) + 2} --sim {args.out}")


if __name__ == "__main__":
    main()
