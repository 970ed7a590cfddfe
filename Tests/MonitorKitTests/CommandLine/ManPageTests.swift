import Foundation
import TestSupport
import Testing

@testable import MonitorKit

@Suite("Man page")
struct ManPageTests {
  static let committed = "share/man/man1/broadcast-monitor.1"

  @Test("The committed broadcast-monitor.1 is the one generated from the declarations")
  func committedIsCurrent() throws {
    let mismatch = try Golden.mismatch(ManPage.text, at: Fixtures.packageRoot.appendingPathComponent(Self.committed))
    #expect(mismatch == nil, "\(mismatch ?? "")")
  }

  @Test("It names every command and option, with roff's hyphens escaped")
  func content() {
    let text = ManPage.text
    for command in CommandTable.commands {
      #expect(text.contains(".SS \(ManPage.escape(command.name))"), "\(command.name)")
      for option in command.parsedOptions + command.subcommands.flatMap(\.options) {
        #expect(text.contains("\\fB\\-\\-\(option.name.replacingOccurrences(of: "-", with: "\\-"))\\fR"))
      }
    }
    #expect(!text.split(separator: "\n").contains { $0.hasPrefix(".") && $0.hasPrefix("..") })
  }
}
