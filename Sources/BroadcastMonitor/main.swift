import Foundation
import MonitorKit

// broadcast-monitor: airplay monitoring for radio. The monitor is the MonitorKit library; this only runs it.

exit(CommandLineTool.run(Array(CommandLine.arguments.dropFirst())))
