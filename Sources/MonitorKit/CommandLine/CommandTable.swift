/// Every command of `broadcast-monitor` and its options, declared once. `main.swift` dispatches on these names, each
/// command parses its line with its own declaration (`CommandLineArguments(_:for:)`), and the usage, `--help`, the
/// man page and the shell completions are generated from them (`CommandHelp`, `ManPage`, `ShellCompletion`).
enum CommandTable {
  /// The program's name, as the user types it.
  static let program = "broadcast-monitor"

  /// What the program does, in one line.
  static let summary = "logs every catalog song, ad or jingle that airs, with exact times"

  static let catalogOption = OptionSpec.value("catalog", "FILE", "the catalog file (.bmcat)", required: true)
  static let settingsOption = OptionSpec.value(
    "settings", "FILE", "matcher settings (JSON5; see config/matcher-settings.json5)")

  static let catalog = CommandSpec(
    ["catalog"], "builds and inspects a catalog of recordings",
    subcommands: [
      CommandSpec(
        ["catalog", "add"], "adds audio files, or folders searched recursively, to the catalog (created if missing)",
        options: [
          catalogOption,
          .value(
            "metadata", "tracks.csv",
            "a CSV with a path column and any of title, artist, album, isrc, label, kind; without PATH, its paths "
              + "are added"),
          .value("jobs", "N", "files read at once, 1…256 (default: one per core)"),
          .flag(
            "allow-duplicates",
            "add a file even when its recording is already in the catalog (each airing is then logged under either "
              + "copy)"),
          .value(
            "from-unknown", "CLUSTER",
            "instead of PATH: the recording of a cluster of unknown music (report unknown), from its longest clip; "
              + "its airings in --db become late plays"),
          .value("title", "TEXT", "the title of the --from-unknown recording"),
          .value("artist", "TEXT", "its artist"),
          .value("isrc", "CODE", "its ISRC"),
          .value("kind", "KIND", "song, ad, jingle or other (default song)"),
          .value("db", "plays.sqlite|postgresql://USER@HOST:PORT/DB", "the play log that holds the cluster"),
        ],
        arguments: "[PATH...]",
        details: """
          A file whose recording the catalog already holds, under another file or earlier in the same run (a FLAC
          and its MP3, an album track and its compilation copy, a radio edit inside the album version), is not
          added: each airing would be logged once, under whichever copy is matched first, so the recording's plays
          would be split between two items. The output names the track it repeats.

          With --from-unknown CLUSTER, --title, --artist and --db (no PATH): the cluster's longest, most confident
          clip that is still on disk becomes the item's reference, and each airing of the cluster is logged once as a
          play with status late. Exit 64 for a cluster the play log does not have, 66 when none of its clips is left,
          73 when the catalog's folder cannot be written.
          """),
      CommandSpec(["catalog", "list"], "prints one line per item, with its key", options: [catalogOption]),
      CommandSpec(
        ["catalog", "info"], "prints how many items, how much audio, the index size and the format version",
        options: [catalogOption]),
      CommandSpec(
        ["catalog", "remove"], "removes items named by key, ISRC or source path", options: [catalogOption],
        arguments: "KEY|ISRC|PATH..."),
      CommandSpec(
        ["catalog", "duplicates"],
        "lists the items whose recording an earlier item holds: exit 0 when there is none, 1 with the list",
        options: [catalogOption],
        details: """
          For a catalog built before catalog add skipped such files: each airing of a recording held twice is logged
          twice. Each line names the item, the earlier one, how much they share and how far apart it lies; remove
          the later ones with catalog remove KEY.
          """),
      CommandSpec(
        ["catalog", "upgrade"], "rewrites a catalog of an older format version (1 to 5) as version 6",
        options: [catalogOption]),
    ])

  static let match = CommandSpec(
    ["match"], "identifies a clip, or a signature written by `signature`: exit 0 with the match, 1 with \"no match\"",
    options: [
      catalogOption,
      .flag("all", "every match in the clip, the most matches first, not only the best"),
      settingsOption,
    ],
    arguments: "CLIP|FILE.bmsig",
    details: """
      CLIP is any audio file ffmpeg reads; a file ending in .bmsig is a signature written by `signature`, matched
      without its audio (as ShazamKit matches a signature).
      """)

  static let scan = CommandSpec(
    ["scan"], "logs every play in a recording of one channel",
    options: [
      catalogOption,
      .value("channel", "NAME", "the channel's name in the play log", required: true),
      .value(
        "start", "ISO8601",
        "when the recording began, such as 2026-01-01T00:00:00Z (default: its modification time minus its "
          + "length, said on stderr)"),
      .value("db", "plays.sqlite|postgresql://USER@HOST:PORT/DB", "the play log to write the plays to"),
      .value("node", "NAME", "the node that writes them to a PostgreSQL play log (default: the host name)"),
      .value(
        "outage-wait", "SECONDS",
        "how long to wait for a PostgreSQL play log that went away before the plays are left in the spool "
          + "(default 300)"),
      .value(
        "spool-dir", "DIR",
        "where the spool keeps plays the play log cannot take (default: beside an SQLite play log; for PostgreSQL, "
          + "the current folder)"),
      .value("csv", "OUT.csv", "a CSV file to write the plays to (without --db or --csv: standard output)"),
      .value("clips", "DIR", "a folder to keep each unknown music segment's audio in, as an Opus clip"),
      .value(
        "catalog-play-clips", "KINDS",
        "the kinds of catalog items whose plays get a clip too, in the --clips folder (proof of airing): a list "
          + "such as ad,jingle, `all` or `none` (the default); as unknown.catalogPlayClips for `run`"),
      settingsOption,
    ],
    arguments: "RECORDING")

  static let signature = CommandSpec(
    ["signature"], "writes a clip's signature to a file, for `match`",
    options: [.value("out", "FILE.bmsig", "the signature file to write", required: true)], arguments: "CLIP")

  static let run = CommandSpec(
    ["run"], "monitors channels live (the daemon)",
    options: [
      .value(
        "config", "monitor.json5",
        "the configuration (JSON5; config/monitor.example.json5 shows every key). The options below replace its "
          + "keys; --channel adds channels to its own."),
      .value("catalog", "FILE", "the catalog (required without --config)"),
      .value(
        "db", "plays.sqlite|postgresql://USER@HOST:PORT/DB",
        "the play log: an SQLite file, created when missing, or a PostgreSQL database that several nodes share "
          + "(required without --config)"),
      .value("node", "NAME", "this monitor's name in a PostgreSQL play log (default: the host name)"),
      .value(
        "spool-dir", "DIR", "where the play log's spool keeps plays the play log cannot take (default: beside it)"),
      .value(
        "channel", "NAME=SOURCE",
        "a channel (at least one without --config). NAME: letters, digits, - _ . (it also names the channel's "
          + "JACK ports); SOURCE below", repeatable: true),
      .value("jack-client", "NAME", "the JACK client's name (default broadcast-monitor)"),
      .value("jack-server", "NAME", "the JACK server (default: $JACK_DEFAULT_SERVER, else the default server)"),
      .value("workers", "N", "matcher threads, 1…64 (default: one per processor)"),
      .value("tz", "ZONE", "time zone of the --channel channels, such as Europe/Berlin (default: the machine's)"),
      .value("settings", "FILE", "global matcher settings (JSON5, as scan --settings)"),
      .value(
        "http", "ADDR:PORT|off",
        "the HTTP API, /metrics and /healthz (default 127.0.0.1:8750; another address than loopback needs "
          + "http.token in --config)"),
      .flag(
        "log",
        "one line per event on standard error, even on a terminal (default without a terminal; on a terminal run "
          + "shows the live console: Up/Down select, Enter details, Esc back, q quit)"),
      .flag(
        "json",
        "one JSON object per event on standard output: time, channel, event, message and the event's data"),
    ],
    details: """
      SOURCE is one of:
        jack, jack-mono                   JACK ports NAME_L and NAME_R (stereo) or NAME (mono), left unconnected
        jack:SRC_L,SRC_R, jack-mono:SRC   connected from those JACK ports: jack:system:capture_1,system:capture_2
        jack~REGEX, jack-mono~REGEX       connected from the first ports by name that match the POSIX extended REGEX
        http://…, https://…, rtsp://…     a stream: any URL that ffmpeg reads
        file:PATH, file+loop:PATH         an audio file, played once or over and over
      --log and --json are two ways of writing the events: give one at most.
      """)

  static let feed = CommandSpec(
    ["feed"], "plays an audio file in real time into JACK input ports, as a sound card would",
    options: [
      .value("client", "NAME", "the JACK client's name (default broadcast-monitor-feed)"),
      .value("server", "NAME", "the JACK server (default: $JACK_DEFAULT_SERVER, else the default server)"),
      .flag("loop", "start the file again at its end, until SIGINT or SIGTERM"),
      .value("start", "SECONDS", "where in the file to begin (default 0)"),
      .value(
        "on-air-since", "TIME",
        "play the file as live air that began at TIME (ISO 8601): begin where that air is when the audio starts"),
      .value(
        "connect", "DST_L,DST_R|DST", "the JACK input ports to play into: two for stereo, one for mono",
        required: true),
    ],
    arguments: "FILE")

  static let report = CommandSpec(
    ["report"], "writes airplay and compliance reports from the play log, as CSV",
    options: [
      .value(
        "db", "plays.sqlite|postgresql://USER@HOST:PORT/DB", "the play log (required without --config's databasePath)"),
      .value("config", "monitor.json5", "the channels' time zones, the play log and the reports section"),
      .value("from", "DATE", "the first day or time reported"),
      .value("to", "DATE", "the end of the report, excluded"),
      .value("channel", "NAME", "only this channel"),
      .value("tz", "ZONE", "the station's time zone (default: the channel's timeZone in --config, else the machine's)"),
      .value("out", "FILE", "the CSV file, written whole or not at all (default: standard output)"),
    ],
    arguments: "KIND",
    details: "DATE: YYYY-MM-DD (local midnight of that broadcast day) or an ISO 8601 time with its zone; [from, to)",
    subcommands: [
      CommandSpec(["report", "plays"], "every play in air order (the scan --csv columns, then status)"),
      CommandSpec(
        ["report", "segments"],
        "the labelled timeline: channel,start,end,label,item,cluster (catalog, unknown-music, speech, silence, mixed)"),
      CommandSpec(
        ["report", "unknown"], "one row per cluster of unknown music: first and last aired, airings, seconds, channels"),
      CommandSpec(
        ["report", "airplay"], "plays, seconds aired, first and last air time per item",
        options: [
          .flag("by-channel", "one row per item and channel"),
          .value("group", "day|week|month", "one row per item and period (airplay and quota)"),
        ]),
      CommandSpec(
        ["report", "soundexchange"],
        "SoundExchange Report of Use, one per service (reports.soundExchange in --config)",
        options: [
          .value("format", "csv|pipe", "CSV or SoundExchange's pipe-delimited text (default csv)"),
          .value("out-dir", "DIR", "one file per service, named as SoundExchange asks"),
          .value("icecast-log", "FILE", "performances from the listeners in Icecast's access log"),
          .value("audience", "FILE", "performances from hourly AQH (channel,hour_start,aqh)"),
        ]),
      CommandSpec(
        ["report", "quota"], "content quotas (reports.quotaRules in --config)",
        options: [.value("group", "day|week|month", "one row per rule and period (airplay and quota)")]),
      CommandSpec(
        ["report", "proof-of-play"], "every airing of ads (or KIND), per advertiser, with cart and partial airings",
        options: [.value("kind", "KIND", "the item kind reported (default: reports.proofOfPlay.kind, else ad)")]),
      CommandSpec(
        ["report", "reconcile"],
        "each scheduled spot (schedule import) against what aired: aired, aired-late, aired-early, partial, "
          + "wrong-channel, missed, unmonitored (its channel not heard then), pending (its time not past yet); "
          + "and unscheduled",
        options: [
          .value(
            "tolerance", "SECONDS", "how far from its scheduled time a spot still counts as aired, 0…3600 (default 60)"
          ),
          .value("kind", "KIND", "the item kind reconciled (default: reports.proofOfPlay.kind, else ad)"),
        ]),
      CommandSpec(
        ["report", "alerts"],
        "every alert (silence, source_down, lagging, play_log_unwritable, no_catalog, node_down) with its start, "
          + "end and detail"),
    ],
    subcommandsAreKinds: true)

  static let schedule = CommandSpec(
    ["schedule"], "reads the traffic system's log of scheduled spots into the play log",
    subcommands: [
      CommandSpec(
        ["schedule", "import"], "reads a traffic log into the play log, for report reconcile",
        options: [
          .value(
            "db", "plays.sqlite|postgresql://USER@HOST:PORT/DB",
            "the play log (required without --config's databasePath)"),
          .value("config", "monitor.json5", "the channels and their time zones"),
          .value("tz", "ZONE", "the time zone of local times in the file (default: the channel's, else the machine's)"),
          .flag(
            "replace",
            "first removes each channel's spots on the days the file covers (its local days): a corrected log "
              + "replaces the one imported before"),
        ],
        arguments: "TRAFFIC.csv",
        details: """
          TRAFFIC.csv: columns channel,scheduled_at,cart,advertiser,title,length_s (header row; comma, semicolon or
          tab; scheduled_at ISO 8601, or local time in the channel's zone: --tz, else its timeZone in --config)
          """)
    ])

  static let db = CommandSpec(
    ["db"], "moves a play log between engines; lists and retires the nodes of a PostgreSQL play log",
    subcommands: [
      CommandSpec(
        ["db", "copy"], "copies an SQLite play log into PostgreSQL: resumable, verified by counts and a checksum",
        options: [
          .value("from", "plays.sqlite", "the SQLite play log", required: true),
          .value(
            "to", "postgresql://USER@HOST:PORT/DB", "the PostgreSQL play log (its tables are created)", required: true),
        ],
        details: """
          The password comes from PGPASSWORD or ~/.pgpass, never from the command line. Run it again after an
          interruption: it goes on after the last row copied. Exit 0 when every table has the same rows (count and
          checksum) on both sides, 65 when they differ.
          """),
      CommandSpec(
        ["db", "nodes"],
        "lists the nodes of a PostgreSQL play log: those running, and those that ended without stopping",
        options: [.value("db", "postgresql://USER@HOST:PORT/DB", "the PostgreSQL play log", required: true)],
        details: """
          One tab-separated line per node with a heartbeat: its name; its state (running; silent: its session is open
          but it has written no heartbeat for 30 s; ended: its session has ended, it was killed, crashed or lost the
          server); its channels; those another node took over from it (channel=node); its last heartbeat, by the
          server's clock; and the seconds since. A node that stopped cleanly has no heartbeat and is not listed.
          """),
      CommandSpec(
        ["db", "retire"], "retires a node that ended without stopping and will not run again",
        options: [
          .value("db", "postgresql://USER@HOST:PORT/DB", "the PostgreSQL play log", required: true),
          .value("node", "NAME", "the node to retire", required: true),
        ],
        details: """
          As if the node had stopped cleanly at its last heartbeat: its open plays are marked recovered, each channel
          it still monitored gets a gap from its last heartbeat (open until a node monitors the channel again), its
          channels are given up for another node to claim, its open alerts are closed (but node_down, which the
          running nodes close), and its heartbeat is removed, so that the running nodes close node_down once it has
          been clear for alerts.holdSeconds. The password comes from PGPASSWORD or ~/.pgpass. Exit 0 when retired
          (or nothing was left to retire), 75 while the node runs (stop it: a clean stop needs no retiring).
          """),
    ])

  static let help = CommandSpec(
    ["help"], "describes a command; writes the man page or a shell completion script",
    options: [
      .flag("man", "the man page (roff), for broadcast-monitor.1"),
      .value("completion", "bash|zsh", "the completion script for that shell"),
    ],
    arguments: "[COMMAND [SUBCOMMAND]]")

  /// The commands in the order the usage lists them.
  static let commands = [catalog, match, scan, signature, run, feed, report, schedule, db, help]

  /// The command named by `path` (`["catalog", "add"]`), if any.
  static func command(_ path: [String]) -> CommandSpec? {
    guard let first = path.first, var spec = commands.first(where: { $0.name == first }) else { return nil }
    for word in path.dropFirst() {
      guard let sub = spec.subcommand(word) else { return nil }
      spec = sub
    }
    return spec
  }
}
