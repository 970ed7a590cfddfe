/// `GET /api/v1/openapi.json`: an OpenAPI 3.1 description of the API. `OpenAPIDocumentTests` checks the real
/// responses of every endpoint against its schemas (required fields and types), so a change to a response that
/// this document does not follow fails there.
enum OpenAPIDocument {
  static let text = """
    {
      "openapi": "3.1.0",
      "info": {
        "title": "broadcast-monitor",
        "version": "1",
        "description": "Read-only API of `broadcast-monitor run`: channels, plays, events, reports, metrics. Times are ISO 8601 UTC with milliseconds. From other hosts than the monitor's, every request needs `Authorization: Bearer TOKEN` (http.token) or the cookie of a dashboard login (`POST /login` with that header sets it, `POST /logout` ends it). After 5 wrong tokens within a minute from one address (IPv6: its /64), every try with a token from it is 429 with Retry-After (seconds) until the oldest of them is a minute old. The play log's pages (plays, events, alerts) read SQLite or PostgreSQL alike."
      },
      "paths": {
        "/api/v1/channels": {
          "get": {
            "summary": "Every channel as the console sees it",
            "responses": {
              "200": {"description": "The channels", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Channels"}}}},
              "400": {"$ref": "#/components/responses/Error"}
            }
          }
        },
        "/api/v1/plays": {
          "get": {
            "summary": "Plays from the play log, newest first, paged",
            "parameters": [
              {"$ref": "#/components/parameters/from"}, {"$ref": "#/components/parameters/to"},
              {"$ref": "#/components/parameters/channel"}, {"$ref": "#/components/parameters/limit"},
              {"$ref": "#/components/parameters/cursor"}
            ],
            "responses": {
              "200": {"description": "A page of plays", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/PlaysPage"}}}},
              "400": {"$ref": "#/components/responses/Error"},
              "503": {"$ref": "#/components/responses/Error"}
            }
          }
        },
        "/api/v1/events": {
          "get": {
            "summary": "Events from the play log (gaps, reconnects, overruns, restarts), newest first, paged",
            "parameters": [
              {"$ref": "#/components/parameters/from"}, {"$ref": "#/components/parameters/to"},
              {"$ref": "#/components/parameters/channel"}, {"$ref": "#/components/parameters/limit"},
              {"$ref": "#/components/parameters/cursor"}
            ],
            "responses": {
              "200": {"description": "A page of events", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/EventsPage"}}}},
              "400": {"$ref": "#/components/responses/Error"},
              "503": {"$ref": "#/components/responses/Error"}
            }
          }
        },
        "/api/v1/alerts": {
          "get": {
            "summary": "Alerts from the play log (silence, source down, lagging, play log not writable, nothing from the catalog), newest first, paged",
            "description": "from and to select the alerts that overlap the period (an open one lasts until now); channel selects one channel's and the monitor's own (channel null).",
            "parameters": [
              {"$ref": "#/components/parameters/from"}, {"$ref": "#/components/parameters/to"},
              {"$ref": "#/components/parameters/channel"}, {"$ref": "#/components/parameters/limit"},
              {"$ref": "#/components/parameters/cursor"}
            ],
            "responses": {
              "200": {"description": "A page of alerts", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/AlertsPage"}}}},
              "400": {"$ref": "#/components/responses/Error"},
              "503": {"$ref": "#/components/responses/Error"}
            }
          }
        },
        "/api/v1/events/stream": {
          "get": {
            "summary": "The monitor's events as Server-Sent Events",
            "description": "Each event as `event: KIND` (play_started, play_ended, play_withdrawn, gap, reconnect, overrun, lagging, caught_up, notice, ...), `id:` a sequence number and `data:` the JSON object `run --json` writes for it. Every second `event: channels` with the /api/v1/channels document; `: keepalive` comments when idle. A client that falls 1000 events behind is disconnected.",
            "responses": {
              "200": {"description": "The stream", "content": {"text/event-stream": {"schema": {"type": "string"}}}},
              "503": {"$ref": "#/components/responses/Error"}
            }
          }
        },
        "/api/v1/reports/{kind}.csv": {
          "get": {
            "summary": "A report as CSV, as `broadcast-monitor report KIND` writes it",
            "description": "The options of `report KIND` as query parameters (by-channel=true for the switch); db, config, out, out-dir, icecast-log, audience and format are not taken.",
            "parameters": [
              {"name": "kind", "in": "path", "required": true, "schema": {"type": "string", "enum": ["plays", "airplay", "quota", "proof-of-play", "reconcile", "alerts"]}},
              {"name": "from", "in": "query", "schema": {"type": "string"}, "description": "YYYY-MM-DD (local midnight) or an ISO 8601 time with its zone"},
              {"name": "to", "in": "query", "schema": {"type": "string"}, "description": "the end, excluded"},
              {"name": "channel", "in": "query", "schema": {"type": "string"}},
              {"name": "tz", "in": "query", "schema": {"type": "string"}},
              {"name": "by-channel", "in": "query", "schema": {"type": "boolean"}},
              {"name": "group", "in": "query", "schema": {"type": "string", "enum": ["day", "week", "month"]}},
              {"name": "kind", "in": "query", "schema": {"type": "string"}},
              {"name": "tolerance", "in": "query", "schema": {"type": "number", "minimum": 0, "maximum": 3600}, "description": "reconcile: seconds from its time a spot still counts as aired (default 60)"}
            ],
            "responses": {
              "200": {"description": "The report", "content": {"text/csv": {"schema": {"type": "string"}}}},
              "400": {"$ref": "#/components/responses/Error"},
              "404": {"$ref": "#/components/responses/Error"}
            }
          }
        },
        "/login": {
          "post": {
            "summary": "The dashboard's login from other hosts: opens a login and sets its HttpOnly, SameSite=Strict cookie (a random id, not the token)",
            "security": [{"bearer": []}],
            "responses": {
              "204": {"description": "Logged in: Set-Cookie bm_session"},
              "401": {"$ref": "#/components/responses/Error"},
              "404": {"$ref": "#/components/responses/Error"},
              "429": {"$ref": "#/components/responses/TooManyWrongTokens"}
            }
          }
        },
        "/logout": {
          "post": {
            "summary": "The dashboard's logout: closes the login of the bm_session cookie and clears the cookie",
            "responses": {
              "303": {"description": "Logged out: Set-Cookie bm_session with Max-Age=0, Location ./ (the page, now the login page)"},
              "404": {"$ref": "#/components/responses/Error"}
            }
          }
        },
        "/api/v1/openapi.json": {
          "get": {"summary": "This document", "responses": {"200": {"description": "OpenAPI 3.1", "content": {"application/json": {"schema": {"type": "object"}}}}}}
        },
        "/metrics": {
          "get": {"summary": "Prometheus metrics (text format 0.0.4)", "responses": {"200": {"description": "Metrics", "content": {"text/plain": {"schema": {"type": "string"}}}}}}
        },
        "/healthz": {
          "get": {
            "summary": "ok when every channel has audio and the play log is writable",
            "responses": {
              "200": {"description": "ok", "content": {"text/plain": {"schema": {"type": "string"}}}},
              "503": {"description": "One line per problem", "content": {"text/plain": {"schema": {"type": "string"}}}}
            }
          }
        }
      },
      "components": {
        "parameters": {
          "from": {"name": "from", "in": "query", "schema": {"type": "string", "format": "date-time"}, "description": "the period's start (ISO 8601 with its zone): rows that overlap it are listed, such as a play on air at this time or still open; an event without an end when it starts at or after it"},
          "to": {"name": "to", "in": "query", "schema": {"type": "string", "format": "date-time"}, "description": "the period's end: rows that start before it"},
          "channel": {"name": "channel", "in": "query", "schema": {"type": "string"}},
          "limit": {"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": 1000, "default": 100}},
          "cursor": {"name": "cursor", "in": "query", "schema": {"type": "string"}, "description": "nextCursor of the previous page"}
        },
        "securitySchemes": {
          "bearer": {"type": "http", "scheme": "bearer", "description": "http.token; needed from other hosts only"},
          "cookie": {"type": "apiKey", "in": "cookie", "name": "bm_session", "description": "set by POST /login, cleared by POST /logout; a login lasts 30 days or until the monitor restarts"}
        },
        "responses": {
          "Error": {"description": "What is wrong and the fix", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
          "TooManyWrongTokens": {
            "description": "Too many wrong tokens from this address lately: try again after Retry-After seconds",
            "headers": {"Retry-After": {"schema": {"type": "integer", "minimum": 1}}},
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
          }
        },
        "schemas": {
          "Error": {"type": "object", "required": ["error"], "properties": {"error": {"type": "string"}}},
          "Channels": {
            "type": "object",
            "required": ["generatedAt", "startedAt", "catalog", "playLog", "alerts", "nodes", "waiting", "channels"],
            "properties": {
              "generatedAt": {"type": "string", "format": "date-time"},
              "startedAt": {"type": "string", "format": "date-time"},
              "catalog": {"type": "object", "required": ["items", "hours"], "properties": {"items": {"type": "integer"}, "hours": {"type": "number"}}},
              "playLog": {"type": "object", "required": ["path", "writable", "pendingWrites"], "properties": {"path": {"type": "string"}, "writable": {"type": "boolean"}, "pendingWrites": {"type": "integer"}}},
              "alerts": {"type": "array", "description": "the monitor's own open alerts (play_log_unwritable, node_down)", "items": {"type": "object", "required": ["kind", "since"], "properties": {"kind": {"type": "string"}, "since": {"type": "string"}, "detail": {"type": "string"}}}},
              "nodes": {"type": "array", "description": "the other nodes of a PostgreSQL deployment that have heartbeats in the play log (they run, or ended without stopping), as this node last read them (every 10 s); empty with SQLite", "items": {"type": "object", "required": ["node", "state", "channels", "takenOver", "lastHeartbeat", "heartbeatAgeSeconds", "sessionEnded"], "properties": {"node": {"type": "string"}, "state": {"type": "string", "enum": ["running", "silent", "ended"], "description": "ended: its session with the server has ended (killed, crashed, or cut off from the server); silent: its session is open but it has written no heartbeat for 30 s (it hangs, or lost its power or network under a minute ago); running otherwise"}, "channels": {"type": "array", "description": "its channels that no other node has taken over", "items": {"type": "string"}}, "takenOver": {"type": "object", "description": "the channels of its last heartbeat that another node holds now (it ended without stopping), each with that node", "additionalProperties": {"type": "string"}}, "lastHeartbeat": {"type": "string", "format": "date-time", "description": "by the server's clock"}, "heartbeatAgeSeconds": {"type": "number", "description": "under 10 while the node runs"}, "sessionEnded": {"type": "boolean", "description": "its session with the server has ended (killed, crashed): a node started with its channels takes them"}}}},
              "waiting": {"type": "array", "description": "the channels of the configuration that wait on this node for the node that holds them to end (PostgreSQL; database.standby), and are taken over then; empty otherwise", "items": {"type": "object", "required": ["channel", "heldBy", "since"], "properties": {"channel": {"type": "string"}, "heldBy": {"type": "string", "description": "the node that holds it"}, "since": {"type": "string", "format": "date-time"}}}},
              "channels": {"type": "array", "items": {"$ref": "#/components/schemas/Channel"}}
            }
          },
          "Channel": {
            "type": "object",
            "required": ["name", "source", "state", "levelDBFS", "onAir", "plays", "overruns", "gaps", "reconnects", "lagSeconds", "alerts"],
            "properties": {
              "name": {"type": "string"},
              "source": {"type": "string"},
              "state": {"type": "string", "enum": ["listening", "silent", "reconnecting", "lagging", "starting", "down", "stopped"]},
              "levelDBFS": {"type": ["number", "null"], "description": "peak level, null for digital silence; never above 0"},
              "onAir": {"type": "array", "items": {"$ref": "#/components/schemas/OnAir"}},
              "unknownMusic": {"type": ["object", "null"], "description": "music that matched nothing in the catalog, on air now (null when none, or a catalog play is on air)", "required": ["since", "cluster"], "properties": {"since": {"type": "string", "format": "date-time"}, "cluster": {"type": ["integer", "null"], "description": "its cluster in `report unknown`, once it matched an earlier unknown segment"}}},
              "plays": {"type": "integer"},
              "overruns": {"type": "integer"},
              "gaps": {"type": "integer"},
              "reconnects": {"type": "integer"},
              "lagSeconds": {"type": "number"},
              "alerts": {"type": "array", "items": {"type": "object", "required": ["kind", "since"], "properties": {"kind": {"type": "string"}, "since": {"type": "string"}, "detail": {"type": "string"}}}}
            }
          },
          "OnAir": {
            "type": "object",
            "required": ["playId", "title", "artist", "kind", "start", "offsetSeconds", "speed", "confidence"],
            "properties": {
              "playId": {"type": ["integer", "null"], "description": "the play_id of its play_started event"},
              "title": {"type": "string"}, "artist": {"type": "string"}, "kind": {"type": "string"},
              "start": {"type": "string", "format": "date-time"},
              "offsetSeconds": {"type": "number"}, "speed": {"type": "number"}, "confidence": {"type": "number"}
            }
          },
          "PlaysPage": {
            "type": "object",
            "required": ["plays", "nextCursor"],
            "properties": {"plays": {"type": "array", "items": {"$ref": "#/components/schemas/Play"}}, "nextCursor": {"type": ["string", "null"]}}
          },
          "Play": {
            "type": "object",
            "required": ["id", "channel", "title", "artist", "kind", "isrc", "start", "end", "status", "offsetSeconds", "speed", "confidence", "identifiedAt"],
            "properties": {
              "id": {"type": "integer"}, "channel": {"type": "string"}, "title": {"type": "string"}, "artist": {"type": "string"},
              "kind": {"type": "string"}, "isrc": {"type": ["string", "null"]},
              "start": {"type": "string", "format": "date-time"}, "end": {"type": ["string", "null"], "format": "date-time"},
              "status": {"type": "string", "enum": ["open", "closed", "recovered", "late"]},
              "offsetSeconds": {"type": "number"}, "speed": {"type": "number"}, "confidence": {"type": "number"},
              "identifiedAt": {"type": ["string", "null"], "format": "date-time"}
            }
          },
          "AlertsPage": {
            "type": "object",
            "required": ["alerts", "nextCursor"],
            "properties": {"alerts": {"type": "array", "items": {"$ref": "#/components/schemas/Alert"}}, "nextCursor": {"type": ["string", "null"]}}
          },
          "Alert": {
            "type": "object",
            "required": ["id", "channel", "kind", "start", "end", "detail"],
            "properties": {
              "id": {"type": "integer"}, "channel": {"type": ["string", "null"], "description": "null for the monitor's own"},
              "kind": {"type": "string", "description": "silence, source_down, lagging, play_log_unwritable, no_catalog, node_down"},
              "start": {"type": "string", "format": "date-time"}, "end": {"type": ["string", "null"], "format": "date-time"},
              "detail": {"type": "string"}
            }
          },
          "EventsPage": {
            "type": "object",
            "required": ["events", "nextCursor"],
            "properties": {"events": {"type": "array", "items": {"$ref": "#/components/schemas/Event"}}, "nextCursor": {"type": ["string", "null"]}}
          },
          "Event": {
            "type": "object",
            "required": ["id", "channel", "kind", "start", "end", "detail"],
            "properties": {
              "id": {"type": "integer"}, "channel": {"type": ["string", "null"]}, "kind": {"type": "string"},
              "start": {"type": "string", "format": "date-time"}, "end": {"type": ["string", "null"], "format": "date-time"},
              "detail": {"type": "string"}
            }
          }
        }
      }
    }
    """
}
