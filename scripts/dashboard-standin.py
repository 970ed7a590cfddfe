#!/usr/bin/env python3
"""A stand-in for `broadcast-monitor run --http`, for working on the dashboard without building or running the monitor.

    python3 scripts/dashboard-standin.py [--port 8751]      # then open http://127.0.0.1:8751/

It serves the dashboard's files straight from Sources/MonitorKit/Service/Dashboard/Static (edit, reload), and
the HTTP API's contract from the JSON recorded in scripts/dashboard-standin/ (channels with two other nodes and a waiting channel, plays, events; no alerts), its times moved
so that the recording ends now. The event stream sends the channels every second, a play_started (with a hostile
title) every 20 s, and opens and closes a silence alert on the third channel every 20 s. A development tool only: the dashboard's tests run against the real monitor.
"""

import argparse
import datetime
import http.server
import json
import pathlib
import re
import threading
import time
import urllib.parse

ROOT = pathlib.Path(__file__).resolve().parent.parent
STATIC = ROOT / "Sources/MonitorKit/Service/Dashboard/Static"
RECORDED = pathlib.Path(__file__).resolve().parent / "dashboard-standin"
RECORDED_AT = datetime.datetime(2026, 12, 1, 12, 0, 0, tzinfo=datetime.timezone.utc)
TIME = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")
TYPES = {".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8",
         ".js": "text/javascript; charset=utf-8", ".svg": "image/svg+xml"}
STARTED = datetime.datetime.now(datetime.timezone.utc)


def iso(moment):
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (moment.microsecond // 1000)


def parse(text):
    return datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=datetime.timezone.utc)


def shifted(value, delta):
    """The recorded value with every time moved by delta."""
    if isinstance(value, dict):
        return {key: shifted(item, delta) for key, item in value.items()}
    if isinstance(value, list):
        return [shifted(item, delta) for item in value]
    if isinstance(value, str) and TIME.match(value):
        return iso(parse(value) + delta)
    return value


def recorded(name):
    with open(RECORDED / name, encoding="utf-8") as handle:
        body = json.load(handle)
    return shifted(body, STARTED - RECORDED_AT + (datetime.datetime.now(datetime.timezone.utc) - STARTED))


class Live:
    """Plays started by the stand-in's event stream, shared by every client."""

    lock = threading.Lock()
    next_id = 100000
    started = []  # play_started objects, newest last
    silence_start = None  # the stand-in's silence alert on the third channel, opened and closed by the stream


def channels_now():
    body = recorded("channels.json")
    body["generatedAt"] = iso(datetime.datetime.now(datetime.timezone.utc))
    for index, channel in enumerate(body["channels"]):
        if channel["levelDBFS"] is not None:
            channel["levelDBFS"] = round(-30 + 20 * abs(((time.time() * (index + 1)) % 2) - 1), 1)
        with Live.lock:
            mine = [event for event in Live.started if event["channel"] == channel["name"]]
        if mine:
            event = mine[-1]
            channel["onAir"] = [{"playId": event["play_id"], "title": event["title"], "artist": event["artist"],
                                 "kind": event["kind"], "start": event["start"], "offsetSeconds": 0.0,
                                 "speed": event["speed"], "confidence": event["confidence"]}]
    return body


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):  # noqa: A002 (the base class's name)
        pass

    def send(self, status, content_type, body):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def send_json(self, value, status=200):
        self.send(status, "application/json", json.dumps(value, ensure_ascii=False).encode())

    def do_GET(self):  # noqa: N802 (the base class's name)
        url = urllib.parse.urlsplit(self.path)
        path = url.path
        query = urllib.parse.parse_qs(url.query)
        if path in ("/", "/index.html"):
            path = "/index.html"
        if path.startswith("/dashboard/"):
            path = path[len("/dashboard"):]
        file = STATIC / path.lstrip("/")
        if "/" not in path.lstrip("/") and file.suffix in TYPES and file.is_file():
            return self.send(200, TYPES[file.suffix], file.read_bytes())
        if path == "/api/v1/channels":
            return self.send_json(channels_now())
        if path in ("/api/v1/plays", "/api/v1/events"):
            key = path.rsplit("/", 1)[1]
            rows = recorded(key + ".json")[key]
            if key == "plays":
                with Live.lock:
                    rows = [{"id": e["play_id"], "channel": e["channel"], "title": e["title"], "artist": e["artist"],
                             "kind": e["kind"], "isrc": None, "start": e["start"], "end": None, "status": "open",
                             "offsetSeconds": 0.0, "speed": e["speed"], "confidence": e["confidence"]}
                            for e in reversed(Live.started)] + rows
            start = query.get("from", [None])[0]
            end = query.get("to", [None])[0]
            channel = query.get("channel", [None])[0]
            rows = [row for row in rows if (not start or (row["end"] or "9") >= start) and (not end or row["start"] < end)
                    and (not channel or row["channel"] == channel)]
            limit = min(int(query.get("limit", ["100"])[0]), 1000)
            return self.send_json({key: rows[:limit], "nextCursor": None})
        if path == "/api/v1/alerts":  # none recorded: the live ones come through the stream
            return self.send_json({"alerts": [], "nextCursor": None})
        if path.startswith("/api/v1/reports/") and path.endswith(".csv"):
            return self.send(200, "text/csv; charset=utf-8", b"channel,title,artist,start\r\nfm,Armygeddon,Muldjord,x\r\n")
        if path == "/api/v1/events/stream":
            return self.stream()
        return self.send_json({"error": "no such path: " + path}, 404)

    def stream(self):
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        sequence = 0
        try:
            while True:
                sequence += 1
                message = "event: channels\nid: %d\ndata: %s\n\n" % (sequence, json.dumps(channels_now()))
                if sequence % 20 == 5:
                    now = datetime.datetime.now(datetime.timezone.utc)
                    with Live.lock:
                        Live.next_id += 1
                        event = {"time": iso(now), "channel": "fm", "event": "play_started",
                                 "message": "play started", "play_id": Live.next_id,
                                 "title": "<b>Live</b> & \"hostile\" </script> %d" % Live.next_id,
                                 "artist": "Stand-in", "kind": "song", "isrc": None, "start": iso(now),
                                 "ref_offset_s": 0.0, "speed": 1.01, "confidence": 0.9}
                        Live.started.append(event)
                    sequence += 1
                    message += "event: play_started\nid: %d\ndata: %s\n\n" % (sequence, json.dumps(event))
                if sequence % 20 in (10, 16):
                    opened = sequence % 20 == 10
                    now = datetime.datetime.now(datetime.timezone.utc)
                    if opened:
                        Live.silence_start = iso(now)
                    alert = {"time": iso(now), "channel": "web <b>stream</b>",
                             "event": "alert_opened" if opened else "alert_closed",
                             "message": "ALERT silence", "kind": "silence", "start": Live.silence_start,
                             "end": None if opened else iso(now), "detail": "below -50 dBFS for 15 s <i>x</i>"}
                    sequence += 1
                    message += "event: %s\nid: %d\ndata: %s\n\n" % (alert["event"], sequence, json.dumps(alert))
                self.wfile.write(message.encode())
                self.wfile.flush()
                time.sleep(1)
        except (BrokenPipeError, ConnectionResetError):
            pass


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8751)
    arguments = parser.parse_args()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", arguments.port), Handler)
    server.daemon_threads = True
    print("dashboard stand-in on http://127.0.0.1:%d/ (Ctrl-C stops it)" % arguments.port, flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
