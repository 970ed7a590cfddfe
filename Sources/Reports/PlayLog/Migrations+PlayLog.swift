/// The play log's schema.
extension Migrations {
  /// Every migration of the play log, in order.
  static let playLog = Migrations([
    Migration(id: "001_initial", sql: initialPlayLogSchema),
    Migration(id: "002_report_index", sql: reportIndex),
    trafficSchedule,
    alerts,
    unknownMusic,
    nodes,
    latePlays,
    listenerSamples,
    clips,
    heartbeats,
    heartbeatWrites,
    alertNodes,
    nodeHeartbeats,
  ])

  /// Reports add up each channel's plays by item over a span of time (`PlayLogReader.addTallies`): with the item
  /// and end in the channel index, SQLite reads only the index, which holds each channel's plays side by side,
  /// instead of every page of the table (where the channels' plays are interleaved in time). It replaces
  /// `plays_by_channel_start`, its prefix.
  private static let reportIndex = """
    CREATE INDEX plays_by_channel_start_item ON plays(channel_id, start_ms, item_id, end_ms);
    DROP INDEX plays_by_channel_start;
    """

  /// Channels, a mirror of the catalog's metadata (so reports work without the catalog file), plays and events.
  /// Times are integer milliseconds since 1970, UTC.
  private static let initialPlayLogSchema = """
    CREATE TABLE channels(
      id INTEGER PRIMARY KEY,
      name TEXT NOT NULL UNIQUE
    );

    -- item_key is the catalog's stable key for an item.
    CREATE TABLE catalog_items(
      id INTEGER PRIMARY KEY,
      item_key TEXT NOT NULL UNIQUE,
      title TEXT NOT NULL DEFAULT '',
      artist TEXT NOT NULL DEFAULT '',
      album TEXT NOT NULL DEFAULT '',
      isrc TEXT NOT NULL DEFAULT '',
      label TEXT NOT NULL DEFAULT '',
      kind TEXT NOT NULL,
      attributes_json TEXT NOT NULL DEFAULT '{}',
      duration_ms INTEGER
    );

    CREATE TABLE plays(
      id INTEGER PRIMARY KEY,
      channel_id INTEGER NOT NULL REFERENCES channels(id),
      item_id INTEGER NOT NULL REFERENCES catalog_items(id),
      start_ms INTEGER NOT NULL,
      end_ms INTEGER NOT NULL,
      ref_offset_ms INTEGER NOT NULL,
      speed REAL NOT NULL,
      confidence REAL NOT NULL,
      detected_at_ms INTEGER NOT NULL,
      status TEXT NOT NULL CHECK(status IN ('open', 'closed', 'recovered')),
      updated_at_ms INTEGER NOT NULL
    );
    CREATE INDEX plays_by_channel_start ON plays(channel_id, start_ms);
    CREATE INDEX plays_by_start ON plays(start_ms);

    -- kind: gap, reconnect, overrun, restart, …; channel_id is NULL for an event of the whole monitor.
    CREATE TABLE events(
      id INTEGER PRIMARY KEY,
      channel_id INTEGER REFERENCES channels(id),
      kind TEXT NOT NULL,
      start_ms INTEGER NOT NULL,
      end_ms INTEGER,
      detail TEXT NOT NULL DEFAULT ''
    );
    CREATE INDEX events_by_start ON events(start_ms);
    """
}
