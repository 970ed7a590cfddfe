import Common
import Foundation
import Matcher
import Reports

/// `broadcast-monitor`'s command line: runs the command its arguments name (each command lives in its own file) and
/// turns what it throws into the message on standard error and the exit status, in this one place.
package enum CommandLineTool {
  /// Runs the command; returns the process's exit status (0, 64 usage, 65 data, 74 unwritten plays, 75 play log
  /// held by another writer, 78 configuration, 1 anything else).
  package static func run(_ arguments: [String]) -> Int32 {
    let status: Int32
    do {
      if let request = try HelpRequest(arguments) {
        print(request.text, terminator: request.text.hasSuffix("\n") ? "" : "\n")
        status = 0
      } else {
        switch arguments.first {
        case "catalog": status = try CatalogCommand.run(arguments.dropFirst())
        case "match": status = try MatchCommand.run(arguments.dropFirst())
        case "scan": status = try ScanCommand.run(arguments.dropFirst())
        case "run": status = try RunCommand.run(arguments.dropFirst())
        case "signature": status = try SignatureCommand.run(arguments.dropFirst())
        case "feed": status = try FeedCommand.run(arguments.dropFirst())
        case "report": status = try ReportCommand.run(arguments.dropFirst())
        case "schedule": status = try ScheduleCommand.run(arguments.dropFirst())
        case "db": status = try DatabaseCommand.run(arguments.dropFirst())
        case let word?: throw UsageError(CommandHelp.unknownCommand(word))
        case nil:
          printError(CommandHelp.usage)
          status = 64
        }
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
    } catch let error as CatalogEditLock.Held {
      printError("broadcast-monitor: \(error)")
      status = 75  // EX_TEMPFAIL, as a held play log: the same edit works once the other one has finished
    } catch let error as CatalogEditLock.Unwritable {
      printError("broadcast-monitor: \(error)")
      status = 73  // EX_CANTCREAT: the catalog cannot be written where it was named
    } catch let error as PlayLogNodeError {
      printError("broadcast-monitor: \(error)")
      status = 75  // EX_TEMPFAIL, as a held lock: the node or channel is free once the other monitor stops
    } catch let error as PostgreSQLError where error.needsConfigurationFix {
      printError("broadcast-monitor: \(error)")
      // EX_CONFIG: a password in the URL, an unreadable password file or a refused login; restarting every 2 s
      // would only repeat it.
      status = 78
    } catch let error as SQLiteError where error.isUnusableFile {
      printError("broadcast-monitor: \(error)")
      // EX_CONFIG: the file named as the play log cannot be one; a person must name or restore the right one.
      status = 78
    } catch let error as ForeignDatabaseError {
      printError("broadcast-monitor: \(error)")
      status = 78  // EX_CONFIG: the file named is another program's database
    } catch let error as MigrationError {
      printError("broadcast-monitor: \(error)")
      status = 78  // EX_CONFIG: a newer version's play log; no restart of this version reads it
    } catch let error as FormatError where error.isCatalog {
      printError("broadcast-monitor: \(error)")
      status = 78  // EX_CONFIG as well: no restart brings back a damaged or missing catalog
    } catch let error as StreamInputError where error.needsConfigurationFix {
      printError("broadcast-monitor: \(error)")
      status = 78  // EX_CONFIG: ffmpeg not installed, or a source that is not one; a restart would only repeat it
    } catch let error as DataFileError {
      printError("broadcast-monitor: \(error)")
      status = 65  // EX_DATAERR: a traffic log or an audience file is malformed; the message names the line
    } catch {
      printError("broadcast-monitor: \(error)")
      status = 1
    }
    return status
  }
}
