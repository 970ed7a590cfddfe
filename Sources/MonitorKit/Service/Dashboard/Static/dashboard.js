// broadcast-monitor dashboard: tiles, timelines, last plays and report downloads, from the HTTP API
// (/api/v1/channels, /plays, /events, /alerts, /events/stream, /reports/KIND.csv).
// Everything the API returns is text from outside (titles, artists, channel names, details): it only ever reaches
// the page through textContent and attribute values set with setAttribute, never as markup.
"use strict";

(function () {
  // Tuning, in one place.
  const TIMELINE_REFRESH_MS = 60000; // a timeline that shows "now" is fetched again at least this often
  const PLAYS_REFRESH_DEBOUNCE_MS = 1500; // play events arriving together cause one fetch of the plays
  const PENDING_PLAY_KEEP_MS = 15000; // a play_started kept on its tile until a channels snapshot has it
  const PLAYS_LIMIT = 200; // rows in the last plays
  const TIMELINE_PAGE_LIMIT = 1000; // the API's largest page
  const TIMELINE_MAX_PAGES = 5; // plays or events fetched for one timeline period, at most 5,000
  const TIMELINE_PIXELS_PER_HOUR = 240; // a 24 h timeline is 5,760 px wide and scrolls; a 4-minute song is 16 px
  const METER_FLOOR_DBFS = -60; // the level meter's left end
  const FALLBACK_POLL_MS = 5000; // /api/v1/channels while the event stream is down
  // Alert kinds drawn as alerts on the timeline (silence has its own colour).
  const LIVE_ALERTS_KEPT = 500; // alerts from the stream kept for tiles and timelines
  const ALERT_KINDS = new Set(["source_down", "lagging", "play_log_unwritable", "no_catalog", "node_down"]);

  const state = {
    channels: [], // the last /api/v1/channels snapshot's channels
    overview: null, // the rest of that snapshot
    clockOffsetMs: 0, // server clock minus this browser's, from generatedAt
    pending: new Map(), // playId -> {channel, item, at}: started plays a snapshot may not show yet
    ended: new Set(), // playIds ended or withdrawn since the last snapshot
    liveAlerts: [], // alert_opened/alert_closed seen on the stream: {channel, kind, start, end, detail}
    plays: [],
    timelineEnd: null, // null: the period ends now
    timelineHours: 24,
    streamUp: false,
  };

  // ---- DOM helpers: text only --------------------------------------------------------------------------------------

  function el(tag, attributes, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (name === "class") node.className = String(value);
      else node.setAttribute(name, String(value));
    }
    for (const child of children) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function byId(id) {
    return document.getElementById(id);
  }

  function str(value) {
    return value === null || value === undefined ? "" : String(value);
  }

  function num(value) {
    return typeof value === "number" && isFinite(value) ? value : null;
  }

  // ---- Formats -----------------------------------------------------------------------------------------------------

  const timeFormat = new Intl.DateTimeFormat(undefined, {
    hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23",
  });
  const dayTimeFormat = new Intl.DateTimeFormat(undefined, {
    month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23",
  });
  const hourFormat = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });

  function parseTime(text) {
    if (typeof text !== "string") return null;
    const ms = Date.parse(text);
    return isNaN(ms) ? null : ms;
  }

  function nowMs() {
    return Date.now() + state.clockOffsetMs;
  }

  function formatTime(ms) {
    return ms === null ? "–" : timeFormat.format(new Date(ms));
  }

  function formatDuration(seconds) {
    if (seconds === null || seconds < 0) return "–";
    const s = Math.floor(seconds);
    const h = Math.floor(s / 3600);
    const m = Math.floor((s % 3600) / 60);
    const r = s % 60;
    if (h > 0) return h + " h " + String(m).padStart(2, "0") + " min";
    if (m > 0) return m + " min " + String(r).padStart(2, "0") + " s";
    return r + " s";
  }

  function formatSpeed(speed) {
    if (num(speed) === null) return "–";
    const percent = (speed - 1) * 100;
    return (percent >= 0 ? "+" : "−") + Math.abs(percent).toFixed(1) + " %";
  }

  function formatConfidence(confidence) {
    return num(confidence) === null ? "–" : Math.round(confidence * 100) + " %";
  }

  function itemLabel(item) {
    const title = str(item.title) || "(untitled)";
    return item.artist ? title + " – " + str(item.artist) : title;
  }

  // The tile's colour class for a state: healthy, silent, reconnecting, lagging, down, or none.
  function stateClass(channelState) {
    switch (channelState) {
      case "listening": return "healthy";
      case "silent": return "silent";
      case "reconnecting": return "reconnecting";
      case "lagging": return "lagging";
      case "down": return "down";
      default: return "";
    }
  }

  // ---- API ---------------------------------------------------------------------------------------------------------

  async function getJSON(path) {
    const response = await fetch(path, { headers: { Accept: "application/json" } });
    // From another host, a login that ended (a new token): the page is then the login page.
    if (response.status === 401) location.reload();
    if (!response.ok) {
      let reason = response.status + " " + response.statusText;
      try {
        const body = await response.json();
        if (body && body.error) reason = str(body.error);
      } catch (ignored) { /* not JSON: the status says it */ }
      throw new Error(path + ": " + reason);
    }
    return response.json();
  }

  function query(parameters) {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(parameters)) {
      if (value !== null && value !== undefined && value !== "") search.set(key, String(value));
    }
    const text = search.toString();
    return text ? "?" + text : "";
  }

  // Every page of plays or events in [from, to), up to TIMELINE_MAX_PAGES.
  async function getAll(path, key, parameters) {
    const rows = [];
    let cursor = null;
    for (let page = 0; page < TIMELINE_MAX_PAGES; page++) {
      const body = await getJSON(path + query(Object.assign({}, parameters, { cursor: cursor })));
      for (const row of body[key] || []) rows.push(row);
      cursor = body.nextCursor;
      if (!cursor) break;
    }
    return rows;
  }

  function showProblem(text) {
    const connection = byId("connection");
    connection.textContent = text;
    connection.classList.add("lost");
  }

  // ---- Tiles -------------------------------------------------------------------------------------------------------

  function applySnapshot(snapshot) {
    if (!snapshot || !Array.isArray(snapshot.channels)) return;
    const generated = parseTime(snapshot.generatedAt);
    if (generated !== null) state.clockOffsetMs = generated - Date.now();
    state.overview = snapshot;
    state.channels = snapshot.channels;
    const onAirIds = new Set();
    for (const channel of state.channels) {
      for (const item of channel.onAir || []) onAirIds.add(item.playId);
    }
    const now = Date.now();
    for (const [playId, pending] of state.pending) {
      if (onAirIds.has(playId) || now - pending.at > PENDING_PLAY_KEEP_MS) state.pending.delete(playId);
    }
    state.ended.clear();
    renderSummary();
    renderMonitorAlerts();
    renderTiles();
    renderNodes();
    updateChannelOptions();
  }

  function renderSummary() {
    const o = state.overview;
    if (!o) return;
    const parts = [state.channels.length + (state.channels.length === 1 ? " channel" : " channels")];
    const waiting = Array.isArray(o.waiting) ? o.waiting.length : 0;
    if (waiting > 0) parts.push(waiting + " waiting for another node");
    if (o.catalog) parts.push("catalog " + str(o.catalog.items) + " items, " + str(o.catalog.hours) + " h");
    if (o.playLog) {
      parts.push(o.playLog.writable === false ? "play log CANNOT BE WRITTEN" : "play log ok");
      if (o.playLog.pendingWrites > 0) parts.push(o.playLog.pendingWrites + " writes waiting");
    }
    const started = parseTime(o.startedAt);
    if (started !== null) parts.push("up " + formatDuration((nowMs() - started) / 1000));
    byId("summary").textContent = parts.join(" · ");
  }

  // The alerts open on a channel (name null: the monitor's own, such as node_down): the snapshot's, less those the
  // stream closed since, plus those it opened since.
  function openAlerts(name, snapshotAlerts) {
    const live = state.liveAlerts.filter((alert) => alert.channel === name);
    const closed = (alert) => live.some((other) => other.kind === str(alert.kind) && other.end !== null
      && (parseTime(other.start) ?? 0) >= (parseTime(alert.since) ?? 0) - 1000);
    const alerts = (Array.isArray(snapshotAlerts) ? snapshotAlerts : []).filter((alert) => !closed(alert));
    for (const alert of live) {
      if (alert.end === null && !alerts.some((other) => str(other.kind) === alert.kind)) {
        alerts.push({ kind: alert.kind, since: alert.start, detail: alert.detail });
      }
    }
    return alerts;
  }

  function alertList(alerts, label) {
    const list = el("ul", { class: "alerts", "aria-label": label });
    for (const alert of alerts) {
      const since = parseTime(alert.since);
      list.append(el("li", {}, "⚠ " + str(alert.kind) + " since " + formatTime(since)
        + (alert.detail ? ": " + str(alert.detail) : "")));
    }
    return list;
  }

  // The monitor's own open alerts under the summary (a node down, the play log unwritable); nothing when none.
  function renderMonitorAlerts() {
    const container = byId("monitor-alerts");
    const alerts = state.overview ? openAlerts(null, state.overview.alerts) : [];
    const fresh = el("div", { id: "monitor-alerts", class: "monitor-alerts", role: "alert" },
      alerts.length > 0 ? alertList(alerts, "Monitor alerts") : null);
    morph(container, fresh);
  }

  function onAlert(event, opened) {
    const alert = {
      channel: event.channel === null || event.channel === undefined ? null : str(event.channel),
      kind: str(event.kind), start: str(event.start), end: opened ? null : str(event.end || event.time),
      detail: str(event.detail),
    };
    const i = state.liveAlerts.findIndex((other) => other.channel === alert.channel && other.kind === alert.kind
      && other.start === alert.start);
    if (i >= 0) state.liveAlerts[i] = alert;
    else state.liveAlerts.push(alert);
    // Closed ones are kept while a timeline of the last day can show them, and never more than LIVE_ALERTS_KEPT.
    const dayAgo = nowMs() - 24 * 3600 * 1000;
    state.liveAlerts = state.liveAlerts.filter((other) => other.end === null || (parseTime(other.end) ?? 0) > dayAgo)
      .slice(-LIVE_ALERTS_KEPT);
    renderMonitorAlerts();
    renderTiles();
    scheduleTimelineRefresh();
  }

  // The items on air: the snapshot's, less those ended since, plus plays started since.
  function onAirItems(channel) {
    const items = (channel.onAir || []).filter((item) => !state.ended.has(item.playId));
    for (const pending of state.pending.values()) {
      if (pending.channel === channel.name && !items.some((item) => item.playId === pending.item.playId)) {
        items.push(pending.item);
      }
    }
    items.sort((a, b) => (parseTime(b.start) || 0) - (parseTime(a.start) || 0));
    return items;
  }

  function renderTiles() {
    const container = byId("tiles");
    const existing = new Map();
    for (const tile of container.children) existing.set(tile.dataset.channel, tile);
    const wanted = [];
    for (const channel of state.channels) {
      const fresh = buildTile(channel);
      const old = existing.get(str(channel.name));
      wanted.push(old ? morph(old, fresh) : fresh);
    }
    // After them, the channels of this node's configuration that another node holds (PostgreSQL, database.standby).
    const waiting = state.overview && Array.isArray(state.overview.waiting) ? state.overview.waiting : [];
    for (const channel of waiting) {
      const fresh = buildWaitingTile(channel);
      const old = existing.get(str(channel.channel));
      wanted.push(old ? morph(old, fresh) : fresh);
    }
    if (wanted.length === 0) wanted.push(el("p", { class: "hint" }, "No channels."));
    // Order as the snapshot, channels gone dropped; untouched when already so (keeps focus and selection).
    const same = wanted.length === container.children.length
      && wanted.every((tile, i) => container.children[i] === tile);
    if (!same) container.replaceChildren(...wanted);
  }

  // Makes `old` look like `fresh`, changing only what differs, so that a tile redrawn every second keeps its nodes
  // (focus, text selection, screen readers' live regions announce only what changed). Returns the node kept.
  function morph(old, fresh) {
    if (old.isEqualNode(fresh)) return old;
    if (old.nodeType === Node.TEXT_NODE && fresh.nodeType === Node.TEXT_NODE) {
      old.nodeValue = fresh.nodeValue;
      return old;
    }
    if (old.nodeType !== Node.ELEMENT_NODE || old.nodeName !== fresh.nodeName
      || old.childNodes.length !== fresh.childNodes.length) {
      old.replaceWith(fresh);
      return fresh;
    }
    for (const attribute of Array.from(old.attributes)) {
      if (!fresh.hasAttribute(attribute.name)) old.removeAttribute(attribute.name);
    }
    for (const attribute of Array.from(fresh.attributes)) {
      if (old.getAttribute(attribute.name) !== attribute.value) old.setAttribute(attribute.name, attribute.value);
    }
    const freshChildren = Array.from(fresh.childNodes);
    Array.from(old.childNodes).forEach((child, i) => morph(child, freshChildren[i]));
    return old;
  }

  function buildTile(channel) {
    const name = str(channel.name);
    const channelState = str(channel.state) || "unknown";
    const alerts = openAlerts(name, channel.alerts);
    const classes = ["tile", stateClass(channelState)];
    if (alerts.length > 0) classes.push("alerting");
    const tile = el("article", { class: classes.join(" "), "aria-label": name });
    tile.dataset.channel = name;
    tile.dataset.state = channelState;

    const stateText = channelState === "lagging" && num(channel.lagSeconds) !== null
      ? "behind " + channel.lagSeconds.toFixed(1) + " s" : channelState;
    tile.append(el("div", { class: "tile-head" },
      el("h3", {}, name),
      el("span", { class: "state" }, stateText)));
    if (channel.source) tile.append(el("p", { class: "source" }, str(channel.source)));
    tile.append(buildMeter(channel.levelDBFS, name));

    const items = onAirItems(channel);
    const onAir = el("div", { class: "onair", "aria-live": "polite" });
    const unknown = channel.unknownMusic;
    if (items.length === 0 && unknown && typeof unknown === "object") {
      const since = parseTime(unknown.since);
      const cluster = num(unknown.cluster);
      onAir.append(el("p", { class: "onair-title unknown-music" },
        "Unknown music" + (cluster === null ? "" : " (cluster " + cluster + ")")));
      onAir.append(el("p", { class: "onair-since" },
        "since " + formatTime(since) + " (" + formatDuration(since === null ? null : (nowMs() - since) / 1000) + ")"));
    } else if (items.length === 0) {
      onAir.append(el("p", { class: "nothing" }, "Nothing from the catalog on air"));
    } else {
      const item = items[0];
      const start = parseTime(item.start);
      const title = el("p", { class: "onair-title" }, itemLabel(item));
      if (item.kind) title.append(el("span", { class: "onair-kind" }, str(item.kind)));
      onAir.append(title);
      onAir.append(el("p", { class: "onair-since" },
        "since " + formatTime(start) + " (" + formatDuration(start === null ? null : (nowMs() - start) / 1000) + ")"));
      tile.dataset.playId = str(item.playId);
    }
    tile.append(onAir);

    const item = items[0] || {};
    const facts = el("dl", { class: "facts" });
    const fact = (label, value) => facts.append(el("div", {}, el("dt", {}, label), el("dd", {}, value)));
    fact("Speed", formatSpeed(item.speed));
    fact("Confidence", formatConfidence(item.confidence));
    fact("Offset", num(item.offsetSeconds) === null ? "–" : item.offsetSeconds.toFixed(1) + " s");
    fact("Lag", num(channel.lagSeconds) === null ? "–" : channel.lagSeconds.toFixed(1) + " s");
    fact("Plays", str(channel.plays));
    fact("Overruns / gaps", str(channel.overruns) + " / " + str(channel.gaps));
    tile.append(facts);

    if (alerts.length > 0) tile.append(alertList(alerts, "Alerts"));
    return tile;
  }

  // A channel that waits for the node holding it: this node takes it over when that node's session ends.
  function buildWaitingTile(waiting) {
    const name = str(waiting.channel);
    const tile = el("article", { class: "tile waiting", "aria-label": name });
    tile.dataset.channel = name;
    tile.dataset.state = "waiting";
    const since = parseTime(waiting.since);
    tile.append(el("div", { class: "tile-head" }, el("h3", {}, name), el("span", { class: "state" }, "waiting")));
    tile.append(el("p", { class: "onair-title" }, "Monitored by node " + str(waiting.heldBy)));
    tile.append(el("p", { class: "onair-since" }, "This node takes it over if that node ends. Waiting since "
      + formatTime(since) + " (" + formatDuration(since === null ? null : (nowMs() - since) / 1000) + ")"));
    return tile;
  }

  // The other nodes sharing the play log (PostgreSQL), hidden when there are none (SQLite, or a single node).
  function renderNodes() {
    const nodes = state.overview && Array.isArray(state.overview.nodes) ? state.overview.nodes : [];
    byId("nodes-section").hidden = nodes.length === 0;
    const rows = nodes.map((node) => {
      const nodeState = str(node.state) || "unknown";
      const age = num(node.heartbeatAgeSeconds);
      const takenOver = Object.entries(node.takenOver && typeof node.takenOver === "object" ? node.takenOver : {})
        .map(([channel, holder]) => str(channel) + " by node " + str(holder));
      const row = el("tr", { class: nodeState === "running" ? "node-running" : "node-down" },
        el("td", { class: "text" }, str(node.node)),
        el("td", { class: "node-state" }, nodeState),
        el("td", { class: "text" }, (Array.isArray(node.channels) ? node.channels.map(str) : []).join(", ") || "–"),
        el("td", { class: "text" }, takenOver.join(", ") || "–"),
        el("td", { class: "num" }, formatTime(parseTime(node.lastHeartbeat))
          + (age === null ? "" : " (" + formatDuration(age) + " ago)")));
      row.dataset.node = str(node.node);
      row.dataset.state = nodeState;
      return row;
    });
    morph(byId("nodes-body"), el("tbody", { id: "nodes-body" }, ...rows));
  }

  function buildMeter(level, name) {
    const dbfs = num(level);
    const fraction = dbfs === null ? 0 : Math.max(0, Math.min(1, (dbfs - METER_FLOOR_DBFS) / -METER_FLOOR_DBFS));
    const text = dbfs === null ? "-inf dBFS" : Math.min(0, dbfs).toFixed(1) + " dBFS";
    const fill = el("div", { class: "meter-fill" + (dbfs !== null && dbfs > -3 ? " hot" : "") });
    fill.style.width = (fraction * 100).toFixed(1) + "%";
    return el("div", { class: "meter" },
      el("div", {
        class: "meter-bar", role: "meter", "aria-label": "Input level of " + name,
        "aria-valuemin": METER_FLOOR_DBFS, "aria-valuemax": 0,
        "aria-valuenow": dbfs === null ? METER_FLOOR_DBFS : Math.max(METER_FLOOR_DBFS, Math.min(0, dbfs)),
        "aria-valuetext": text,
      }, fill),
      el("span", { class: "meter-text" }, text));
  }

  function updateChannelOptions() {
    // The channels that wait for another node too: their plays, that node's, are in the play log.
    const waiting = state.overview && Array.isArray(state.overview.waiting) ? state.overview.waiting : [];
    const names = state.channels.map((channel) => str(channel.name))
      .concat(waiting.map((channel) => str(channel.channel)));
    for (const id of ["filter-channel", "report-channel"]) {
      const select = byId(id);
      const current = Array.from(select.options).slice(1).map((option) => option.value);
      if (current.length === names.length && current.every((name, i) => name === names[i])) continue;
      const chosen = select.value;
      select.replaceChildren(el("option", { value: "" }, "all"),
        ...names.map((name) => el("option", { value: name }, name)));
      select.value = names.includes(chosen) ? chosen : "";
    }
  }

  // ---- Live events -------------------------------------------------------------------------------------------------

  function onPlayStarted(event) {
    if (!event.channel) return;
    const item = {
      playId: event.play_id, title: event.title, artist: event.artist, kind: event.kind, start: event.start,
      offsetSeconds: event.ref_offset_s, speed: event.speed, confidence: event.confidence,
    };
    state.pending.set(event.play_id, { channel: str(event.channel), item: item, at: Date.now() });
    state.ended.delete(event.play_id);
    renderTiles();
    schedulePlaysRefresh();
  }

  function onPlayEnded(event) {
    state.pending.delete(event.play_id);
    state.ended.add(event.play_id);
    renderTiles();
    schedulePlaysRefresh();
  }

  function parseData(message) {
    try {
      return JSON.parse(message.data);
    } catch (error) {
      return null;
    }
  }

  let fallbackTimer = null;

  function connectStream() {
    if (typeof EventSource === "undefined") {
      showProblem("This browser has no EventSource: the page refreshes every " + FALLBACK_POLL_MS / 1000 + " s.");
      startFallbackPolling();
      return;
    }
    const source = new EventSource("api/v1/events/stream");
    source.addEventListener("open", () => {
      state.streamUp = true;
      stopFallbackPolling();
      const connection = byId("connection");
      connection.textContent = "Live";
      connection.classList.remove("lost");
    });
    source.addEventListener("error", () => {
      if (!state.streamUp && source.readyState === EventSource.CONNECTING) return;
      state.streamUp = false;
      showProblem("Live updates lost: reconnecting…");
      startFallbackPolling();
    });
    source.addEventListener("channels", (message) => applySnapshot(parseData(message)));
    source.addEventListener("play_started", (message) => {
      const data = parseData(message);
      if (data) onPlayStarted(data);
    });
    for (const kind of ["play_ended", "play_withdrawn"]) {
      source.addEventListener(kind, (message) => {
        const data = parseData(message);
        if (data) onPlayEnded(data);
      });
    }
    source.addEventListener("alert_opened", (message) => {
      const data = parseData(message);
      if (data) onAlert(data, true);
    });
    source.addEventListener("alert_closed", (message) => {
      const data = parseData(message);
      if (data) onAlert(data, false);
    });
    for (const kind of ["gap", "reconnect", "lagging", "caught_up"]) {
      source.addEventListener(kind, () => scheduleTimelineRefresh());
    }
  }

  function startFallbackPolling() {
    if (fallbackTimer !== null) return;
    fallbackTimer = setInterval(() => {
      getJSON("api/v1/channels").then(applySnapshot).catch(() => { /* the status line already says so */ });
    }, FALLBACK_POLL_MS);
  }

  function stopFallbackPolling() {
    if (fallbackTimer !== null) clearInterval(fallbackTimer);
    fallbackTimer = null;
  }

  // ---- Timeline ----------------------------------------------------------------------------------------------------

  function timelinePeriod() {
    const spanMs = state.timelineHours * 3600 * 1000;
    const end = state.timelineEnd === null ? nowMs() : state.timelineEnd;
    return { from: end - spanMs, to: end, spanMs: spanMs };
  }

  // An event's or alert's place on the timeline: gap, silence or alert; null for events not drawn.
  function eventClass(kind) {
    const k = str(kind);
    if (k === "gap" || k === "reconnect") return "gap";
    if (k.includes("silence") || k === "silent") return "silence";
    if (ALERT_KINDS.has(k) || k.startsWith("alert") || k === "overrun" || k === "xrun") return "alert";
    return null;
  }

  let timelineRequest = 0;

  async function refreshTimeline() {
    const request = ++timelineRequest;
    const period = timelinePeriod();
    const parameters = {
      from: new Date(period.from).toISOString(), to: new Date(period.to).toISOString(), limit: TIMELINE_PAGE_LIMIT,
    };
    byId("timeline-range").textContent = dayTimeFormat.format(new Date(period.from)) + " – "
      + (state.timelineEnd === null ? "now" : dayTimeFormat.format(new Date(period.to)));
    byId("timeline-later").disabled = state.timelineEnd === null;
    let plays;
    let events;
    let alerts;
    try {
      [plays, events, alerts] = await Promise.all([
        getAll("api/v1/plays", "plays", parameters),
        getAll("api/v1/events", "events", parameters),
        getAll("api/v1/alerts", "alerts", parameters),
      ]);
    } catch (error) {
      showProblem("The timeline could not be read: " + error.message);
      return;
    }
    if (request !== timelineRequest) return; // a newer request is on its way
    // The play log's alerts (those that overlap the period), then those the stream reported that it has not
    // stored yet (or that closed since): one bar per alert, its channel, kind and start.
    const sameAlert = (a, b) => str(a.channel) === str(b.channel) && str(a.kind) === str(b.kind)
      && parseTime(a.start) === parseTime(b.start);
    for (const alert of state.liveAlerts) {
      const stored = alerts.findIndex((other) => sameAlert(other, alert));
      if (stored >= 0) {
        if (alert.end !== null) alerts[stored] = Object.assign({}, alerts[stored], { end: alert.end });
      } else {
        alerts.push({ channel: alert.channel, kind: alert.kind, start: alert.start, end: alert.end,
          detail: alert.detail });
      }
    }
    renderTimelines(period, plays, events.concat(alerts.map((alert) => Object.assign({ alert: true }, alert))));
  }

  function renderTimelines(period, plays, events) {
    const container = byId("timelines");
    const names = state.channels.map((channel) => str(channel.name));
    for (const row of plays.concat(events)) {
      if (row.channel && !names.includes(str(row.channel))) names.push(str(row.channel));
    }
    const widthPx = Math.max(0, Math.round(state.timelineHours * TIMELINE_PIXELS_PER_HOUR));
    const rows = [];
    for (const name of names) {
      const track = el("div", { class: "timeline-track", role: "list", "aria-label": "Plays and events on " + name });
      track.style.width = widthPx + "px";
      track.append(buildAxis(period));
      let drawn = 0;
      for (const play of plays) {
        if (str(play.channel) !== name) continue;
        const bar = buildBar(period, play.start, play.end, play.kind === "song" || !play.kind ? "play" : "ad");
        if (!bar) continue;
        const start = parseTime(play.start);
        const label = itemLabel(play);
        bar.textContent = label;
        bar.setAttribute("title", label + ", " + formatTime(start) + "–"
          + (play.end ? formatTime(parseTime(play.end)) : "on air") + (play.kind ? " (" + str(play.kind) + ")" : ""));
        if (!play.end) bar.classList.add("open");
        track.append(bar);
        drawn++;
      }
      for (const event of events) {
        const kind = eventClass(event.kind);
        if (!kind || (event.channel !== null && str(event.channel) !== name)) continue;
        const end = eventEnd(event, events);
        const bar = buildBar(period, event.start, end, kind);
        if (!bar) continue;
        bar.setAttribute("title", (event.alert ? "alert " : "") + str(event.kind) + ", "
          + formatTime(parseTime(event.start)) + "–" + (end ? formatTime(parseTime(end)) : "now")
          + (event.detail ? ": " + str(event.detail) : ""));
        if (event.alert) bar.dataset.alert = str(event.kind);
        track.append(bar);
        drawn++;
      }
      if (drawn === 0) track.append(el("span", { class: "empty" }, "Nothing in this period"));
      const scroll = el("div", { class: "timeline-scroll", tabindex: 0, "aria-label": "Timeline of " + name }, track);
      const row = el("section", { class: "timeline" }, el("h3", {}, name), scroll);
      row.dataset.channel = name;
      rows.push(row);
    }
    // Where each timeline was scrolled: one left at its end (now, as drawn first) follows now; another stays put.
    const scrolled = new Map();
    for (const scroll of container.querySelectorAll(".timeline-scroll")) {
      scrolled.set(scroll.dataset.channel, scroll.dataset.atEnd === "1" ? null : scroll.scrollLeft);
    }
    for (const row of rows) {
      const scroll = row.querySelector(".timeline-scroll");
      scroll.dataset.channel = row.dataset.channel;
    }
    container.replaceChildren(...rows);
    if (rows.length === 0) container.append(el("p", { class: "hint" }, "No channels."));
    for (const scroll of container.querySelectorAll(".timeline-scroll")) {
      const left = scrolled.get(scroll.dataset.channel);
      scroll.scrollLeft = left === undefined || left === null ? scroll.scrollWidth : left;
      scroll.dataset.atEnd = atEnd(scroll) ? "1" : "";
      scroll.addEventListener("scroll", () => { scroll.dataset.atEnd = atEnd(scroll) ? "1" : ""; });
    }
  }

  function atEnd(scroll) {
    return scroll.scrollLeft + scroll.clientWidth >= scroll.scrollWidth - 2;
  }

  // A narrower or wider window keeps the timelines that showed now showing now.
  function keepTimelinesAtEnd() {
    for (const scroll of document.querySelectorAll(".timeline-scroll")) {
      if (scroll.dataset.atEnd === "1") scroll.scrollLeft = scroll.scrollWidth;
    }
  }

  function buildAxis(period) {
    const axis = el("div", { class: "axis", "aria-hidden": "true" });
    const stepMs = (state.timelineHours <= 1 ? 0.25 : state.timelineHours <= 6 ? 0.5 : 1) * 3600 * 1000;
    for (let t = Math.ceil(period.from / stepMs) * stepMs; t < period.to; t += stepMs) {
      const tick = el("span", { class: "tick" }, hourFormat.format(new Date(t)));
      tick.style.left = ((t - period.from) / period.spanMs * 100).toFixed(3) + "%";
      axis.append(tick);
    }
    return axis;
  }

  // Where an event's bar ends (null: now). A reconnect or an xrun is an instant. A gap without an end (one written
  // before gaps were given theirs, or one the monitor stopped during) ends at its channel's next reconnect, if any.
  function eventEnd(event, events) {
    if (event.end || event.alert) return event.end;
    const kind = str(event.kind);
    if (kind === "reconnect" || kind === "xrun") return event.start;
    if (kind !== "gap") return event.end;
    const start = parseTime(event.start);
    let next = null;
    for (const other of events) {
      if (str(other.kind) !== "reconnect" || str(other.channel) !== str(event.channel)) continue;
      const at = parseTime(other.start);
      if (at !== null && start !== null && at >= start && (next === null || at < parseTime(next))) next = other.start;
    }
    return next;
  }

  function buildBar(period, startText, endText, kind) {
    const start = parseTime(startText);
    if (start === null) return null;
    const end = parseTime(endText) ?? nowMs();
    if (end < period.from || start > period.to) return null;
    const left = Math.max(start, period.from);
    const right = Math.min(Math.max(end, start), period.to);
    const bar = el("div", { class: "bar " + kind, role: "listitem" });
    // Placed by its right edge, so that a bar too short to see, grown to its minimum width, grows into the past and
    // a play that has just started shows at the right end.
    bar.style.right = ((period.to - right) / period.spanMs * 100).toFixed(4) + "%";
    bar.style.width = ((right - left) / period.spanMs * 100).toFixed(4) + "%";
    return bar;
  }

  let timelineTimer = null;

  function scheduleTimelineRefresh() {
    if (state.timelineEnd !== null || timelineTimer !== null) return;
    timelineTimer = setTimeout(() => {
      timelineTimer = null;
      refreshTimeline();
    }, PLAYS_REFRESH_DEBOUNCE_MS);
  }

  function moveTimeline(direction) {
    const spanMs = state.timelineHours * 3600 * 1000;
    const end = (state.timelineEnd === null ? nowMs() : state.timelineEnd) + direction * spanMs;
    state.timelineEnd = end >= nowMs() ? null : end;
    refreshTimeline();
  }

  // ---- Last plays --------------------------------------------------------------------------------------------------

  let playsRequest = 0;

  async function refreshPlays() {
    const request = ++playsRequest;
    try {
      const body = await getJSON("api/v1/plays" + query({ limit: PLAYS_LIMIT, channel: byId("filter-channel").value }));
      if (request !== playsRequest) return;
      state.plays = Array.isArray(body.plays) ? body.plays : [];
    } catch (error) {
      showProblem("The plays could not be read: " + error.message);
      return;
    }
    updateKindOptions();
    renderPlays();
  }

  let playsTimer = null;

  function schedulePlaysRefresh() {
    scheduleTimelineRefresh();
    if (playsTimer !== null) return;
    playsTimer = setTimeout(() => {
      playsTimer = null;
      refreshPlays();
    }, PLAYS_REFRESH_DEBOUNCE_MS);
  }

  function updateKindOptions() {
    const select = byId("filter-kind");
    const known = new Set(Array.from(select.options).slice(1).map((option) => option.value));
    for (const play of state.plays) {
      const kind = str(play.kind);
      if (kind && !known.has(kind)) {
        known.add(kind);
        select.append(el("option", { value: kind }, kind));
      }
    }
  }

  function renderPlays() {
    const kind = byId("filter-kind").value;
    const text = byId("filter-text").value.trim().toLocaleLowerCase();
    const channel = byId("filter-channel").value;
    const rows = [];
    for (const play of state.plays) {
      if (channel && str(play.channel) !== channel) continue;
      if (kind && str(play.kind) !== kind) continue;
      if (text) {
        const haystack = [play.title, play.artist, play.isrc, play.channel].map(str).join("\n").toLocaleLowerCase();
        if (!haystack.includes(text)) continue;
      }
      const start = parseTime(play.start);
      const end = parseTime(play.end);
      rows.push(el("tr", {},
        el("td", { class: "num" }, start === null ? "–" : dayTimeFormat.format(new Date(start))
          + ":" + String(new Date(start).getSeconds()).padStart(2, "0")),
        el("td", { class: "text" }, str(play.channel)),
        el("td", { class: "text" }, str(play.title)),
        el("td", { class: "text" }, str(play.artist)),
        el("td", {}, str(play.kind)),
        el("td", { class: "num" }, start === null ? "–" : end === null ? "on air"
          : formatDuration((end - start) / 1000)),
        el("td", {}, str(play.status)),
        el("td", { class: "num" }, formatConfidence(play.confidence))));
    }
    byId("plays-body").replaceChildren(...rows);
    byId("plays-count").textContent = rows.length === state.plays.length
      ? "The last " + rows.length + (rows.length === 1 ? " play" : " plays")
      : rows.length + " of the last " + state.plays.length + " plays match";
  }

  // ---- Reports -----------------------------------------------------------------------------------------------------

  function isoDay(date) {
    return date.getFullYear() + "-" + String(date.getMonth() + 1).padStart(2, "0") + "-"
      + String(date.getDate()).padStart(2, "0");
  }

  function updateReportLink() {
    const kind = byId("report-kind").value;
    const from = byId("report-from").value;
    const to = byId("report-to").value;
    const link = byId("report-link");
    link.setAttribute("href", "api/v1/reports/" + encodeURIComponent(kind) + ".csv"
      + query({ from: from, to: to, channel: byId("report-channel").value }));
    link.setAttribute("download", kind + (from ? "-" + from : "") + (to ? "-" + to : "") + ".csv");
  }

  // ---- Start -------------------------------------------------------------------------------------------------------

  function start() {
    const today = new Date();
    const week = new Date(today.getTime() - 7 * 86400000);
    const tomorrow = new Date(today.getTime() + 86400000);
    byId("report-from").value = isoDay(week);
    byId("report-to").value = isoDay(tomorrow);
    for (const id of ["report-kind", "report-from", "report-to", "report-channel"]) {
      byId(id).addEventListener("input", updateReportLink);
      byId(id).addEventListener("change", updateReportLink);
    }
    updateReportLink();

    byId("play-filter").addEventListener("submit", (event) => event.preventDefault());
    byId("filter-channel").addEventListener("change", refreshPlays);
    byId("filter-kind").addEventListener("change", renderPlays);
    byId("filter-text").addEventListener("input", renderPlays);

    byId("timeline-earlier").addEventListener("click", () => moveTimeline(-1));
    byId("timeline-later").addEventListener("click", () => moveTimeline(1));
    byId("timeline-now").addEventListener("click", () => {
      state.timelineEnd = null;
      refreshTimeline();
    });
    byId("timeline-hours").addEventListener("change", (event) => {
      state.timelineHours = Number(event.target.value) || 24;
      refreshTimeline();
    });

    window.addEventListener("resize", keepTimelinesAtEnd);
    getJSON("api/v1/channels")
      .then((snapshot) => {
        applySnapshot(snapshot);
        refreshTimeline();
      })
      .catch((error) => showProblem("The channels could not be read: " + error.message));
    refreshPlays();
    connectStream();
    // Elapsed times and the summary's uptime move on between snapshots; the timeline follows now.
    setInterval(() => {
      renderSummary();
      renderTiles();
    }, 1000);
    setInterval(() => {
      if (state.timelineEnd === null) refreshTimeline();
    }, TIMELINE_REFRESH_MS);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
