#!/usr/bin/env python3
"""The dashboard in a real browser: headless Chromium (Debian's chromium and chromium-driver) driven by Selenium,
against `broadcast-monitor run --http` fed a song through JACK.

    .build/test-venv/bin/python Tests/Browser/dashboard_test.py [--bin .build/debug/broadcast-monitor]

It starts a private jackd (dummy driver), builds a catalog of the three fixture songs (one of them titled with markup,
as hostile metadata would be), runs the monitor with one JACK channel and the HTTP server on a free loopback port,
opens the dashboard, plays the song into the channel with `broadcast-monitor feed`, and checks:
  - the channel's tile shows the song within 2 s of the play_started event (the monitor's --json line);
  - the title is shown as text: no element made from it, no script run;
  - the plays table and the timeline show the play;
  - the timeline draws past alerts from the play log's alerts table, the day before's when moved back a day;
  - an alert of the whole monitor (another program holds the play log locked, so it cannot be written) shows under
    the summary as it opens, and leaves when the lock is released and the alert closes;
  - the browser logged no console error;
  - from another host (the monitor listens on every address, with a token), the page is a login that refuses a wrong
    token and, given the right one, opens the dashboard with its live stream (an HttpOnly cookie); its logout button
    brings the login page back.
Then, with two nodes sharing a private PostgreSQL server (initdb, pg_ctl) and one stream channel, both standby:
  - the dashboard of the node that waits shows the channel's tile as waiting for the other node, and that node as
    running in the table of other nodes;
  - once that node is killed, the tile is the channel's own (taken over) and the table shows the node ended, with the
    channel taken over by the node that shows the page.
Screenshots (desktop and phone width, the monitor's alert, the login, the nodes) go to .build/test-artifacts/. Exit status 0 when
every check passed, 1 when one failed, 77 when Chromium is not installed (skipped); anything else missing is a failure
that names the fix.
"""

import argparse
import datetime
import json
import os
import pathlib
import queue
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
MUSIC = ROOT / "Tests/Fixtures/music"
ARTIFACTS = ROOT / ".build/test-artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
SKIPPED = 77

# Limits, each with its reason.
EVENT_TO_TILE_LIMIT_SECONDS = 2.0  # the requirement: the tile shows the song within 2 s of play_started
START_TIMEOUT_SECONDS = 120  # jackd, a debug build's catalog add and run start on a loaded 2-core machine
PLAY_TIMEOUT_SECONDS = 90  # the song is about 30 s; a debug build on a loaded machine identifies it in a few
POLL_SECONDS = 0.02  # how often the page is read while waiting for the tile

# The song the test plays, its title with markup in it: the page must show it as text.
HOSTILE_TITLE = '<img src=x onerror="window.__injected=1">Chaos God & "Friends" </script>'
HOSTILE_ARTIST = "<b>Muldjord</b>"
CHANNEL = "fm"
TOKEN = "dashboard-test-token"
CLIENT = "bm-dashboard-test"


class Failure(Exception):
    pass


def skip(reason):
    print(f"dashboard browser test: SKIPPED: {reason}", flush=True)
    sys.exit(SKIPPED)


def wait_for(predicate, seconds, what, poll=0.05):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(poll)
    raise Failure(f"{what} did not happen within {seconds} s")


def parse_time(text):
    """An API time (ISO 8601 UTC with milliseconds and Z) as seconds since 1970."""
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Processes:
    """What the test started, stopped newest first with SIGTERM (SIGKILL after 20 s)."""

    def __init__(self):
        self.started = []

    def start(self, command, **kwargs):
        process = subprocess.Popen(command, **kwargs)
        self.started.append(process)
        return process

    def stop_all(self):
        for process in reversed(self.started):
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in reversed(self.started):
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


class EventReader:
    """Reads the monitor's --json lines on a thread; each line with the monotonic time it was read."""

    def __init__(self, stream, log):
        self.lines = queue.Queue()
        self.log = log
        threading.Thread(target=self.read, args=(stream,), daemon=True).start()

    def read(self, stream):
        for line in stream:
            at = time.monotonic()
            self.log.write(line)
            self.log.flush()
            try:
                self.lines.put((at, json.loads(line)))
            except ValueError:
                pass

    def wait(self, predicate, seconds, what):
        deadline = time.monotonic() + seconds
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise Failure(f"{what} did not happen within {seconds} s")
            try:
                at, event = self.lines.get(timeout=left)
            except queue.Empty:
                continue
            if predicate(event):
                return at, event


def api_answers(process, name, log, base):
    """True once the monitor `process` answers GET /api/v1/channels at `base`; a Failure naming its log if it exited."""
    if process.poll() is not None:
        raise Failure(f"{name} exited with status {process.returncode}: see {log}")
    try:
        with urllib.request.urlopen(base + "api/v1/channels", timeout=2) as response:
            return response.status == 200
    except OSError:
        return False


def other_address():
    """An IPv4 address of this machine other than loopback, as another host reaches it; None when it has none."""
    result = subprocess.run(["hostname", "-I"], capture_output=True, text=True)
    for address in result.stdout.split():
        if "." in address and not address.startswith("127."):
            return address
    return None


def start_browser(width, height):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--no-first-run", f"--window-size={width},{height}"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)


def console_errors(driver):
    return [entry for entry in driver.get_log("browser") if entry.get("level") == "SEVERE"]


def run(binary, work):
    from selenium.webdriver.common.by import By

    processes = Processes()
    driver = None
    checks = []
    try:
        env = dict(os.environ, JACK_NO_AUDIO_RESERVATION="1", JACK_NO_START_SERVER="1")
        server = f"bm-dashboard-{os.getpid()}"
        env["JACK_DEFAULT_SERVER"] = server
        processes.start(["jackd", "-n", server, "-d", "dummy", "-r", "48000", "-p", "1024"],
                        stdout=open(work / "jackd.log", "w"), stderr=subprocess.STDOUT, env=env)
        wait_for(lambda: subprocess.run(["jack_lsp"], capture_output=True, env=env).returncode == 0,
                 START_TIMEOUT_SECONDS, f"jackd -n {server} answering jack_lsp")

        metadata = work / "tracks.csv"
        with open(metadata, "w", encoding="utf-8") as out:
            out.write("path,title,artist,kind\n")
            out.write(f"{MUSIC / 'catalog-a.ogg'},Armygeddon,Muldjord,song\n")
            quoted = HOSTILE_TITLE.replace('"', '""')
            out.write(f'{MUSIC / "catalog-b.ogg"},"{quoted}",{HOSTILE_ARTIST},song\n')
            out.write(f"{MUSIC / 'catalog-c.ogg'},Internal Degeneration,Muldjord,song\n")
        catalog = work / "test.bmcat"
        subprocess.run([binary, "catalog", "add", "--catalog", catalog, "--metadata", metadata,
                        MUSIC / "catalog-a.ogg", MUSIC / "catalog-b.ogg", MUSIC / "catalog-c.ogg"],
                       check=True, stdout=subprocess.DEVNULL, stderr=open(work / "catalog.log", "w"))

        port = free_port()
        base = f"http://127.0.0.1:{port}/"
        # Listening on every address with a token: loopback clients (most checks) need none, another host logs in.
        config = work / "monitor.json5"
        # The play log alert at once and a short hold, so that the locked play log's alert opens and closes quickly.
        config.write_text(json.dumps({"http": {"listen": f"0.0.0.0:{port}", "token": TOKEN},
                                      "alerts": {"playLogUnwritable": {"forSeconds": 0}, "holdSeconds": 1}}),
                          encoding="utf-8")
        monitor = processes.start(
            [binary, "run", "--config", config, "--catalog", catalog, "--db", work / "plays.sqlite", "--jack-server",
             server, "--jack-client", CLIENT, "--channel", f"{CHANNEL}=jack", "--json"],
            stdout=subprocess.PIPE, stderr=open(work / "monitor.log", "w"), env=env, text=True)
        events = EventReader(monitor.stdout, open(work / "monitor.jsonl", "w"))

        # The monitor's ports can be connected once its client is active, which it says.
        events.wait(lambda e: str(e.get("message")).startswith(f"JACK client '{CLIENT}'"),
                    START_TIMEOUT_SECONDS, "the monitor's JACK client")
        wait_for(lambda: api_answers(monitor, "the monitor", work / "monitor.log", base), START_TIMEOUT_SECONDS,
                 f"the monitor's HTTP API answering on {base}")

        driver = start_browser(1280, 1000)
        driver.get(base)
        wait_for(lambda: driver.execute_script(
            "return document.querySelector('.tile[data-channel=\"' + arguments[0] + '\"]') !== null"
            " && document.getElementById('connection').textContent === 'Live'", CHANNEL),
            START_TIMEOUT_SECONDS, "the page showing the channel's tile and the live stream connected")

        # The page notes the moment (its wall clock, this machine's) its tile first shows the song.
        driver.execute_script("""
            const expected = arguments[0];
            const observer = new MutationObserver(() => {
              const title = document.querySelector('.tile[data-channel="' + arguments[1] + '"] .onair-title');
              if (title && title.textContent.startsWith(expected) && window.__tileShownAt === undefined) {
                window.__tileShownAt = Date.now();
              }
            });
            observer.observe(document.getElementById('tiles'), {childList: true, subtree: true, characterData: true});
            """, f"{HOSTILE_TITLE} – {HOSTILE_ARTIST}", CHANNEL)
        feed = processes.start(
            [binary, "feed", "--server", server, "--client", "bm-dashboard-feed",
             "--connect", f"{CLIENT}:{CHANNEL}_L,{CLIENT}:{CHANNEL}_R", MUSIC / "catalog-b.ogg"],
            stdout=subprocess.DEVNULL, stderr=open(work / "feed.log", "w"), env=env)

        _, event = events.wait(
            lambda e: e.get("event") == "play_started" and e.get("channel") == CHANNEL,
            PLAY_TIMEOUT_SECONDS, "a play_started on the channel")
        if event.get("title") != HOSTILE_TITLE:
            raise Failure(f"the monitor started a play of {event.get('title')!r}, not the song fed")
        script = ("const tile = document.querySelector('.tile[data-channel=\"' + arguments[0] + '\"]');"
                  "const title = tile && tile.querySelector('.onair-title');"
                  "return title ? title.textContent : null;")
        expected = f"{HOSTILE_TITLE} – {HOSTILE_ARTIST}"
        wait_for(lambda: (driver.execute_script(script, CHANNEL) or "").startswith(expected),
                 EVENT_TO_TILE_LIMIT_SECONDS + 10, "the tile showing the song", poll=POLL_SECONDS)
        # From the event's own time (the monitor's clock) to the moment the page showed it (the page's clock): one
        # machine, one clock.
        delay = driver.execute_script("return window.__tileShownAt") / 1000 - parse_time(event["time"])
        print(f"play_started to tile: {delay:.3f} s (limit {EVENT_TO_TILE_LIMIT_SECONDS} s)", flush=True)
        checks.append(("the tile shows the song within 2 s of play_started", delay <= EVENT_TO_TILE_LIMIT_SECONDS,
                       f"{delay:.3f} s"))

        tile = driver.find_element(By.CSS_SELECTOR, f'.tile[data-channel="{CHANNEL}"]')
        injected = driver.execute_script(
            "return window.__injected === 1 || document.querySelector('main img') !== null")
        checks.append(("the title is text, not markup", not injected and not tile.find_elements(By.TAG_NAME, "b"),
                       "an element or script came from the title"))

        wait_for(lambda: any(HOSTILE_TITLE in cell.text for cell in driver.find_elements(By.CSS_SELECTOR,
                                                                                         "#plays-body td")),
                 15, "the plays table listing the play")
        wait_for(lambda: driver.execute_script(
            "return Array.from(document.querySelectorAll('.timeline .bar.play'))"
            ".some((bar) => bar.textContent.startsWith(arguments[0]))", HOSTILE_TITLE),
            15, "the timeline drawing the play")
        checks.append(("the plays table and the timeline show the play", True, ""))

        # Back in time: the day before has no plays; Now brings the play back.
        driver.find_element(By.ID, "timeline-earlier").click()
        earlier = wait_for(lambda: driver.execute_script(
            "return !document.getElementById('timeline-later').disabled"
            " && document.querySelectorAll('.timeline .bar.play').length === 0"
            " && document.querySelector('.timeline .empty') !== null"), 15, "the timeline showing the day before")
        driver.find_element(By.ID, "timeline-now").click()
        back = wait_for(lambda: driver.execute_script(
            "return document.getElementById('timeline-later').disabled"
            " && document.querySelectorAll('.timeline .bar.play').length === 1"), 15, "the timeline back at now")
        checks.append(("the timeline goes back a day and returns to now", earlier and back, ""))

        # Past alerts, as an earlier run wrote them to the play log: one 3 hours ago, one the day before.
        now_ms = int(time.time() * 1000)
        with sqlite3.connect(work / "plays.sqlite", timeout=10) as db:
            for hours in (3, 30):
                start = now_ms - hours * 3600 * 1000
                db.execute("INSERT INTO alerts(channel_id, kind, start_ms, end_ms, detail)"
                           " SELECT id, 'source_down', ?, ?, ? FROM channels WHERE name = ?",
                           (start, start + 20 * 60 * 1000, f"past alert {hours} h ago", CHANNEL))
            # A gap and its reconnect as older builds wrote them, both without an end.
            gap_start = now_ms - 2 * 3600 * 1000
            for kind, start, detail in (("gap", gap_start, "old gap"), ("reconnect", gap_start + 300_000, "old back")):
                db.execute("INSERT INTO events(channel_id, kind, start_ms, end_ms, detail)"
                           " SELECT id, ?, ?, NULL, ? FROM channels WHERE name = ?", (kind, start, detail, CHANNEL))
        alert_bar = ("return Array.from(document.querySelectorAll('.timeline .bar.alert[data-alert=\"source_down\"]'))"
                     ".some((bar) => bar.getAttribute('title').endsWith(arguments[0]))")
        driver.find_element(By.ID, "timeline-now").click()
        today = wait_for(lambda: driver.execute_script(alert_bar, "past alert 3 h ago"), 15,
                         "the timeline drawing the alert of 3 hours ago")
        driver.find_element(By.ID, "timeline-earlier").click()
        day_before = wait_for(lambda: driver.execute_script(alert_bar, "past alert 30 h ago")
                              and not driver.execute_script(alert_bar, "past alert 3 h ago"), 15,
                              "the timeline of the day before drawing the alert of 30 hours ago")
        driver.find_element(By.ID, "timeline-now").click()
        wait_for(lambda: driver.execute_script(alert_bar, "past alert 3 h ago"), 15, "the timeline back at now")
        checks.append(("the timeline draws past alerts from the play log, back in time too", today and day_before, ""))
        gap_titles = driver.execute_script(
            "return Array.from(document.querySelectorAll('.timeline .bar.gap')).map((bar) => bar.getAttribute('title'))")
        old_gap = [t for t in gap_titles if t.endswith(": old gap")]
        old_back = [t for t in gap_titles if t.endswith(": old back")]
        checks.append(("a gap without an end ends at its reconnect, and a reconnect is an instant, not bars up to now",
                       len(old_gap) == 1 and "–now" not in old_gap[0] and len(old_back) == 1
                       and "–now" not in old_back[0], str(gap_titles)))

        # An alert of the whole monitor: another program holds a write transaction on the play log, so the monitor's
        # writes fail (after SQLite's busy timeout) and play_log_unwritable opens; released, the writes go through.
        monitor_alerts = ("return Array.from(document.querySelectorAll('#monitor-alerts li'))"
                          ".map((item) => item.textContent)")
        locker = sqlite3.connect(work / "plays.sqlite", timeout=10, isolation_level=None)
        try:
            locker.execute("BEGIN IMMEDIATE")
            shown = wait_for(lambda: [t for t in driver.execute_script(monitor_alerts)
                                      if t.startswith("⚠ play_log_unwritable since ")], PLAY_TIMEOUT_SECONDS,
                             "the header showing the play log's alert")
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            driver.save_screenshot(str(ARTIFACTS / "dashboard-monitor-alert.png"))
        finally:
            locker.execute("ROLLBACK")
            locker.close()
        on_tile = driver.execute_script(
            "return Array.from(document.querySelectorAll('.tile .alerts li')).some((item) =>"
            " item.textContent.includes('play_log_unwritable'))")
        gone = wait_for(lambda: driver.execute_script(monitor_alerts) == [], PLAY_TIMEOUT_SECONDS,
                        "the header's alert leaving once the play log is written again")
        checks.append(("an alert of the whole monitor shows under the summary, on no tile, and leaves when it closes",
                       bool(shown) and not on_tile and gone, f"shown {shown}, on a tile {on_tile}"))

        # The text filter, as a person types it.
        text_filter = driver.find_element(By.ID, "filter-text")
        text_filter.send_keys("chaos god")
        matching = len(driver.find_elements(By.CSS_SELECTOR, "#plays-body tr"))
        text_filter.send_keys(" and nothing else")
        none = len(driver.find_elements(By.CSS_SELECTOR, "#plays-body tr"))
        text_filter.clear()
        text_filter.send_keys(" ")  # clear() sends no input event; a blank filter is no filter
        checks.append(("the plays filter by text", matching == 1 and none == 0,
                       f"{matching} rows for 'chaos god' (1 expected), {none} for a text in no play"))

        # The report link downloads the plays report of the period chosen (today and tomorrow: the play).
        driver.set_script_timeout(30)
        href, status, content_type, body = driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const kind = document.getElementById('report-kind');
            kind.value = 'plays';
            kind.dispatchEvent(new Event('change'));
            const href = document.getElementById('report-link').getAttribute('href');
            fetch(href).then(async (r) => done([href, r.status, r.headers.get('Content-Type'), await r.text()]))
              .catch((e) => done([href, 0, '', String(e)]));
            """)
        checks.append(("the report link downloads the plays report with the play",
                       status == 200 and "csv" in str(content_type) and "Chaos God" in body,
                       f"GET {href}: {status} {content_type}: {body[:300]!r}"))

        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(ARTIFACTS / "dashboard.png"))
        # A phone's viewport (headless Chromium's windows are at least 500 px wide, so emulate it).
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True})
        driver.save_screenshot(str(ARTIFACTS / "dashboard-phone.png"))
        overflow = driver.execute_script("return document.documentElement.scrollWidth > window.innerWidth + 1")
        checks.append(("no sideways scrolling at phone width", not overflow, "the page is wider than 390 px"))
        print(f"screenshots: {ARTIFACTS / 'dashboard.png'}, {ARTIFACTS / 'dashboard-phone.png'}", flush=True)

        errors = console_errors(driver)
        checks.append(("no console errors", not errors, "; ".join(str(e.get("message")) for e in errors)))

        # From another host: the login page, a wrong token refused, then the dashboard with its live stream.
        address = other_address()
        if address is None:
            print("no address but loopback: the login from another host is not checked", flush=True)
        else:
            driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
            driver.get(f"http://{address}:{port}/")
            wait_for(lambda: driver.execute_script("return document.getElementById('login-token') !== null"),
                     15, "the login page from another host")
            token = driver.find_element(By.ID, "login-token")
            token.send_keys("not-the-token\n")
            wait_for(lambda: driver.execute_script(
                "return document.getElementById('login-problem').textContent !== ''"), 15, "the login's answer")
            driver.save_screenshot(str(ARTIFACTS / "dashboard-login.png"))
            refused = wait_for(lambda: driver.execute_script(
                "return document.getElementById('login-problem').textContent === 'Wrong token.'"), 15,
                "a wrong token refused")
            token.clear()
            token.send_keys(TOKEN + "\n")
            wait_for(lambda: driver.execute_script(
                "return document.querySelector('.tile[data-channel=\"' + arguments[0] + '\"]') !== null"
                " && document.getElementById('connection').textContent === 'Live'", CHANNEL),
                START_TIMEOUT_SECONDS, "the dashboard from another host, its live stream connected, after the login")
            cookie_hidden = driver.execute_script("return !document.cookie.includes('bm_session')")
            checks.append(("from another host the login opens the dashboard, live; the cookie is HttpOnly",
                           refused and cookie_hidden, "document.cookie shows the login cookie"))
            # A wrong token is a 401, which the browser logs as an error: expected here, not a fault of the page.
            errors = [e for e in console_errors(driver) if "/login" not in str(e.get("message"))]
            checks.append(("no console errors after the login", not errors,
                           "; ".join(str(e.get("message")) for e in errors)))
            # The logout button, shown to a login only, ends it: the page is the login page again.
            logout_shown = driver.execute_script("return !document.getElementById('logout').hidden")
            driver.find_element(By.CSS_SELECTOR, "#logout button").click()
            logged_out = wait_for(lambda: driver.execute_script(
                "return document.getElementById('login-token') !== null"), 15, "the login page after the logout")
            checks.append(("the logout button, shown after the login, logs out", logout_shown and logged_out,
                           "no logout button after the login" if not logout_shown else "still logged in"))
        feed.terminate()
    finally:
        if driver is not None:
            driver.quit()
        processes.stop_all()
    return checks


class PrivatePostgreSQL:
    """A private PostgreSQL server (initdb and pg_ctl in a temporary folder of its own, a free port of 127.0.0.1, trust
    authentication for the user bm), run as the postgres user when this runs as root (the server refuses root); its
    setup's output goes to `log`."""

    def __init__(self, log):
        self.folder = pathlib.Path(tempfile.mkdtemp(prefix="bm-dashboard-postgresql-"))
        folder = self.folder
        self.bindir = pathlib.Path(subprocess.run(["pg_config", "--bindir"], capture_output=True, text=True,
                                                  check=True).stdout.strip())
        self.port = free_port()
        self.as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        if os.geteuid() == 0:
            shutil.chown(folder, user="postgres")
        log = open(log, "w")
        subprocess.run(self.as_user + [self.bindir / "initdb", "-D", folder / "data", "-U", "bm", "-E", "UTF8",
                                       "--locale=C", "--no-sync", "--auth=trust"],
                       check=True, stdout=log, stderr=subprocess.STDOUT)
        subprocess.run(self.as_user + [self.bindir / "pg_ctl", "-D", folder / "data", "-l", folder / "server.log",
                                       "-w", "-o", f"-c listen_addresses=127.0.0.1 -c port={self.port} "
                                       f"-c unix_socket_directories={folder} -c fsync=off", "start"],
                       check=True, stdout=log, stderr=subprocess.STDOUT)
        subprocess.run(self.as_user + [self.bindir / "createdb", "-h", folder, "-p", str(self.port), "-U", "bm",
                                       "plays"], check=True, stdout=log, stderr=subprocess.STDOUT)
        self.url = f"postgresql://bm@127.0.0.1:{self.port}/plays"

    def query(self, sql):
        """The rows of `sql` on the database plays, unaligned, without headers; "" when it fails."""
        result = subprocess.run([self.bindir / "psql", "-h", "127.0.0.1", "-p", str(self.port), "-U", "bm", "-d",
                                 "plays", "-X", "-A", "-t", "-q", "-c", sql], capture_output=True, text=True)
        return result.stdout.strip() if result.returncode == 0 else ""

    def stop(self):
        subprocess.run(self.as_user + [self.bindir / "pg_ctl", "-D", self.folder / "data", "-m", "immediate", "-w",
                                       "stop"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        shutil.rmtree(self.folder, ignore_errors=True)


def run_nodes(binary, work):
    """Two standby nodes on one PostgreSQL play log and one stream channel: the page of the node that waits, before
    and after the other node is killed."""
    from selenium.webdriver.common.by import By

    processes = Processes()
    driver = None
    server = None
    checks = []
    try:
        server = PrivatePostgreSQL(work / "postgresql-setup.log")
        # A stream no server answers: the node that claims the channel first holds it, reconnecting.
        dead = f"http://127.0.0.1:{free_port()}/am.mp3"
        port = free_port()
        base = f"http://127.0.0.1:{port}/"
        for node in ("a", "b"):
            config = {"database": {"url": server.url, "node": node, "standby": True}, "spoolDirectory": str(work),
                      "channels": [{"name": "am", "source": dead}]}
            if node == "b":
                config["http"] = {"listen": f"127.0.0.1:{port}"}
            (work / f"node-{node}.json5").write_text(json.dumps(config), encoding="utf-8")

        def start(node):
            return processes.start([binary, "run", "--config", work / f"node-{node}.json5", "--catalog",
                                    work / "test.bmcat", "--log"], stdout=subprocess.DEVNULL,
                                   stderr=open(work / f"node-{node}.log", "a"))

        node_a = start("a")
        wait_for(lambda: node_a.poll() is None and server.query(
            "SELECT node FROM channel_owners WHERE channel_id = (SELECT id FROM channels WHERE name = 'am')") == "a",
            START_TIMEOUT_SECONDS, f"node a holding the channel (its log: {work / 'node-a.log'})")
        node_b = start("b")

        wait_for(lambda: api_answers(node_b, "node b", work / "node-b.log", base), START_TIMEOUT_SECONDS,
                 f"node b's HTTP API answering on {base}")
        driver = start_browser(1280, 1000)
        driver.get(base)
        tile = ("const tile = document.querySelector('.tile[data-channel=\"am\"]');"
                "return tile ? [tile.dataset.state, tile.textContent] : null;")
        node_row = ("const row = document.querySelector('#nodes-body tr[data-node=\"a\"]');"
                    "return row && !document.getElementById('nodes-section').hidden"
                    " ? Array.from(row.cells).map((cell) => cell.textContent) : null;")
        waiting = wait_for(lambda: (driver.execute_script(tile) or [None])[0] == "waiting"
                           and driver.execute_script(tile), 30, "the channel's tile shown as waiting")
        # Node b reads the other nodes' heartbeats every 10 s.
        running = wait_for(lambda: (driver.execute_script(node_row) or [None, None])[1] == "running"
                           and driver.execute_script(node_row), 30, "node a shown running among the other nodes")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(ARTIFACTS / "dashboard-nodes-waiting.png"))
        summary = driver.find_element(By.ID, "summary").text
        # Its plays, node a's, are in the play log: the plays and reports can be filtered by it.
        options = driver.execute_script(
            "return Array.from(document.getElementById('filter-channel').options).map((option) => option.value)")
        checks.append(("a channel another node holds shows as waiting for it, and that node as running",
                       "Monitored by node a" in waiting[1] and running[2] == "am" and running[3] == "–"
                       and summary.startswith("0 channels · 1 waiting for another node") and options == ["", "am"],
                       f"tile {waiting}, row {running}, summary {summary!r}, channel filter {options}"))

        node_a.kill()  # SIGKILL: its session ends, and node b takes the channel over at its next check
        node_a.wait()
        taken = wait_for(lambda: (driver.execute_script(tile) or ["waiting"])[0] not in ("waiting", "stopped")
                         and driver.execute_script(tile), 60, "the channel's tile shown as this node's own")
        # The next read of the heartbeats after the takeover shows who holds the channel now.
        ended = wait_for(lambda: (driver.execute_script(node_row) or [None, None, None, None])[1:4]
                         == ["ended", "–", "am by node b"] and driver.execute_script(node_row), 60,
                         "node a shown ended, its channel taken over by node b")
        driver.save_screenshot(str(ARTIFACTS / "dashboard-nodes-ended.png"))
        checks.append(("a killed node shows as ended, its channel taken over by the node that shows the page",
                       "Monitored by" not in taken[1], f"tile {taken}, row {ended}"))
        errors = console_errors(driver)
        checks.append(("no console errors on the nodes' page", not errors,
                       "; ".join(str(e.get("message")) for e in errors)))
    finally:
        if driver is not None:
            driver.quit()
        processes.stop_all()
        if server is not None:
            server.stop()
    return checks


def main():
    parser = argparse.ArgumentParser(description="the dashboard in headless Chromium against a live monitor")
    parser.add_argument("--bin", default=str(ROOT / ".build/debug/broadcast-monitor"))
    parser.add_argument("--keep", action="store_true", help="keep the work folder (its logs) after a pass too")
    arguments = parser.parse_args()

    for path, package in ((CHROMIUM, "chromium"), (CHROMEDRIVER, "chromium-driver")):
        if not os.path.exists(path):
            skip(f"{path} is missing: install Debian's {package} (bash scripts/setup.sh does)")
    try:
        import selenium  # noqa: F401 (only checked)
    except ImportError:
        sys.exit("dashboard browser test: Python's selenium is missing: bash scripts/setup.sh installs it in "
                 ".build/test-venv; run this test with .build/test-venv/bin/python")
    for tool, package in (("jackd", "jackd2"), ("jack_lsp", "jackd2"), ("pg_config", "postgresql")):
        if shutil.which(tool) is None:
            sys.exit(f"dashboard browser test: {tool} is missing: install Debian's {package} "
                     "(bash scripts/setup.sh does)")
    if not os.path.exists(arguments.bin):
        sys.exit(f"dashboard browser test: {arguments.bin} is missing: build it with swift build")

    work = pathlib.Path(tempfile.mkdtemp(prefix="bm-dashboard-test-"))
    started = time.monotonic()
    try:
        checks = run(arguments.bin, work)
        checks += run_nodes(arguments.bin, work)
    except (Failure, subprocess.CalledProcessError) as error:
        print(f"dashboard browser test: FAILED: {error} (logs in {work})", flush=True)
        print("0 passed, 1 failed", flush=True)
        sys.exit(1)
    failed = [check for check in checks if not check[1]]
    for name, passed, detail in checks:
        print(f"{'ok  ' if passed else 'FAIL'} {name}" + ("" if passed else f": {detail}"), flush=True)
    print(f"dashboard browser test: {time.monotonic() - started:.1f} s"
          + (f", logs in {work}" if failed or arguments.keep else ""), flush=True)
    if not failed and not arguments.keep:
        shutil.rmtree(work, ignore_errors=True)
    print(f"{len(checks) - len(failed)} passed, {len(failed)} failed", flush=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
