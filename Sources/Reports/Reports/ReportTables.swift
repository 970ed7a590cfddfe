/// The play log tables each report reads, by its name in `report KIND`: the snapshot of a PostgreSQL play log
/// (``PostgreSQLPlayLogSnapshot``) copies only these for it, and leaves the others empty. Every report reads the
/// channels, the catalog items and the plays; the rest are a few reports' own (a whole year's traffic schedule, which
/// only `reconcile` reads, is a quarter of the log's rows). A report that starts to read another table adds it here:
/// the test that compares every report from both engines (DatabaseCommandTests) has rows in every table.
package enum ReportTables {
  /// What every report reads.
  package static let common: Set<String> = ["channels", "catalog_items", "plays"]

  /// The tables report `kind` reads; every table for a kind this does not know.
  package static func read(by kind: String) -> Set<String>? {
    switch kind {
    case "plays", "airplay", "quota": common
    case "proof-of-play": common.union(["play_clips"])  // the clips kept of the airings, as proof
    // The gaps and the heartbeats: a spot nobody could hear is not missed.
    case "reconcile": common.union(["schedule", "events", "channel_heartbeats"])
    case "soundexchange": common.union(["listener_samples"])  // the audience `run` sampled from Icecast
    case "alerts": common.union(["alerts"])
    case "segments", "unknown": common.union(["air_stretches", "unknown_segments"])
    default: nil
    }
  }
}
