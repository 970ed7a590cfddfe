import Foundation
import Matcher
import Reports

// broadcast-monitor: airplay monitoring for radio. Each command lives in its own file; this one only dispatches.

let usage = """
  broadcast-monitor: logs every catalog song, ad or jingle that airs, with exact times.

  usage: broadcast-monitor catalog add --catalog FILE [--metadata tracks.csv] PATH...
         broadcast-monitor catalog list|info --catalog FILE
         broadcast-monitor catalog remove --catalog FILE KEY|ISRC|PATH...
         broadcast-monitor match --catalog FILE CLIP
         broadcast-monitor scan --catalog FILE --channel NAME [--start ISO8601] [--db plays.sqlite]
                                [--csv OUT.csv] RECORDING
         broadcast-monitor signature CLIP --out FILE.bmsig
         broadcast-monitor run --config monitor.json5 [--log | --json]
         broadcast-monitor run --catalog FILE --db plays.sqlite --channel NAME=SOURCE... [--tz ZONE] [--workers N]
                               [--jack-client NAME] [--jack-server NAME]
           SOURCE: jack | jack-mono | jack:SRC_L,SRC_R | jack-mono:SRC | URL | file:PATH | file+loop:PATH
         broadcast-monitor feed [--client NAME] [--server NAME] [--loop] [--start SECONDS]
                                --connect DST_L,DST_R|DST FILE
         broadcast-monitor report plays|airplay|soundexchange|quota|proof-of-play|reconcile --db plays.sqlite
                                  [--config monitor.json5] [--from DATE] [--to DATE] [--channel NAME] [--tz ZONE]
                                  [--out FILE] (report --help for each kind's options)
         broadcast-monitor schedule import --db plays.sqlite [--config monitor.json5] [--tz ZONE] TRAFFIC.csv
  """

let arguments = CommandLine.arguments.dropFirst()
let status: Int32
do {
  switch arguments.first {
  case "catalog": status = try CatalogCommand.run(arguments.dropFirst())
  case "match": status = try MatchCommand.run(arguments.dropFirst())
  case "scan": status = try ScanCommand.run(arguments.dropFirst())
  case "run": status = try RunCommand.run(arguments.dropFirst())
  case "signature": status = try SignatureCommand.run(arguments.dropFirst())
  case "feed": status = try FeedCommand.run(arguments.dropFirst())
  case "report": status = try ReportCommand.run(arguments.dropFirst())
  case "schedule": status = try ScheduleCommand.run(arguments.dropFirst())
  case "help", "--help", "-h":
    print(usage)
    status = 0
  default:
    printError(usage)
    status = 64
  }
} catch let error as UsageError {
  printError("broadcast-monitor: \(error)")
  status = 64
} catch let error as ReportError {
  printError("broadcast-monitor: \(error)")
  status = 64
} catch let error as ConfigurationError {
  printError("broadcast-monitor: \(error)")
  status = 78  // EX_CONFIG: systemd does not restart on it (RestartPreventExitStatus)
} catch let error as PlayLogLockError where error.isHeld {
  printError("broadcast-monitor: \(error)")
  // EX_TEMPFAIL: the same command works once the other writer has ended, so a script may retry it later; apart
  // from 78, because nothing in the configuration is wrong. The systemd unit does not restart on it
  // (RestartPreventExitStatus): retrying every 2 s would not stop the other monitor.
  status = 75
} catch let error as SQLiteError where error.isUnusableFile {
  printError("broadcast-monitor: \(error)")
  status = 78  // EX_CONFIG: the file named as the play log cannot be one; a person must name or restore the right one
} catch let error as FormatError where error.isCatalog {
  printError("broadcast-monitor: \(error)")
  status = 78  // EX_CONFIG as well: no restart brings back a damaged or missing catalog
} catch let error as TrafficLogError {
  printError("broadcast-monitor: \(error)")
  status = 65  // EX_DATAERR: the traffic log handed to `schedule import` is malformed; the message names the line
} catch let error as AudienceFileError {
  printError("broadcast-monitor: \(error)")
  status = 65  // EX_DATAERR: an audience file handed to `report soundexchange` is malformed
} catch {
  printError("broadcast-monitor: \(error)")
  status = 1
}
exit(status)
