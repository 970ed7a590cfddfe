import Foundation
import Matcher
import Testing

@testable import MonitorKit

@Suite("ConfigurationReload")
struct ConfigurationReloadTests {
  static func file(_ name: String, _ path: String = "/srv/a.ogg") -> ChannelConfiguration {
    ChannelConfiguration(name: name, source: .file(path: path, loop: true), timeZone: "UTC")
  }

  static func jack(_ name: String) -> ChannelConfiguration {
    ChannelConfiguration(name: name, source: .jack(JackSource(stereo: true)), timeZone: "UTC")
  }

  static func configuration(_ channels: [ChannelConfiguration]) -> MonitorConfiguration {
    MonitorConfiguration(catalogPath: "/srv/music.bmcat", databasePath: "/srv/plays.sqlite", channels: channels)
  }

  @Test("channels added, removed, changed and untouched, by name, in the new configuration's order")
  func channels() {
    var changed = Self.file("b")
    changed.source = .file(path: "/srv/b.ogg", loop: true)
    var tuned = Self.file("d")
    tuned.matcherOverrides.maxGapSeconds = 30
    let reload = ConfigurationReload(
      from: Self.configuration([Self.file("a"), Self.file("b"), Self.file("c"), Self.file("d")]),
      to: Self.configuration([Self.file("new"), changed, Self.file("a"), tuned]))
    #expect(reload.added.map(\.name) == ["new"])
    #expect(reload.removed == ["c"])
    #expect(reload.changed.map(\.name) == ["b", "d"])
    #expect(reload.unchanged == ["a"])
    #expect(reload.deferred.isEmpty)
    #expect(reload.applied.channels.map(\.name) == ["new", "b", "a", "d"])
    #expect(reload.changesChannels)
  }

  @Test("a change of the global matcher section restarts the channels whose settings it changes")
  func globalMatcher() {
    var tuned = Self.file("tuned")
    tuned.matcherOverrides.maxGapSeconds = 30
    let old = Self.configuration([Self.file("a"), tuned])
    var new = old
    new.matcher.maxGapSeconds = 30
    let reload = ConfigurationReload(from: old, to: new)
    #expect(reload.changed.map(\.name) == ["a"])
    #expect(reload.unchanged == ["tuned"])
  }

  @Test("the play log, the workers, the jack section, the HTTP address and JACK channels wait for the next start")
  func deferred() {
    let old = Self.configuration([Self.jack("fm"), Self.jack("am"), Self.file("web")])
    var new = Self.configuration([Self.jack("fm2"), Self.file("web")])
    new.databasePath = "/elsewhere/plays.sqlite"
    new.workerThreads = old.workerThreads + 1
    new.jack.clientName = "other"
    new.catalogPath = "/srv/other.bmcat"
    new.http = HTTPSettings(listen: "0.0.0.0:8750", token: "new-token")
    let reload = ConfigurationReload(from: old, to: new)
    #expect(!reload.changesChannels)
    #expect(reload.applied.databasePath == old.databasePath)
    #expect(reload.applied.workerThreads == old.workerThreads)
    #expect(reload.applied.jack == old.jack)
    #expect(reload.applied.http == HTTPSettings(listen: old.http.listen, token: "new-token"))
    #expect(reload.applied.catalogPath == "/srv/other.bmcat", "the catalog path applies at once")
    #expect(reload.applied.channels.map(\.name) == ["web", "fm", "am"], "the JACK channels run on as they are")
    #expect(reload.deferred.count == 7, "\(reload.deferred)")
    #expect(reload.deferred.contains("http.listen changed: it takes effect at the next start"))
    #expect(reload.deferred.contains("channel fm2 (JACK) added: it starts at the next start"))
    #expect(reload.deferred.contains("databasePath changed: it takes effect at the next start"))
  }

  @Test("a channel whose alert conditions alone changed runs on untouched, a JACK channel too, with the new conditions")
  func alertConditionsAlone() {
    let old = Self.configuration([Self.file("web"), Self.jack("fm")])
    var new = old
    for i in new.channels.indices { new.channels[i].alertOverrides.silence.forSeconds = 4 }
    let reload = ConfigurationReload(from: old, to: new)
    #expect(reload.unchanged == ["web", "fm"] && !reload.changesChannels && reload.deferred.isEmpty, "\(reload)")
    #expect(reload.applied.channels.map(\.alertOverrides.silence.forSeconds) == [4, 4])
  }

  @Test("the alerts' webhooks, command and conditions apply at once, without a notice or a channel's restart")
  func alertDeliveries() {
    let old = Self.configuration([Self.file("web")])
    var new = old
    new.alerts.command = "/usr/local/bin/page-engineer"
    new.alerts.commandTimeoutSeconds = 30
    new.alerts.webhooks = [AlertWebhookSettings(url: "http://127.0.0.1:9000/hook")]
    new.alerts.overrides.playLogUnwritable.forSeconds = 60
    let reload = ConfigurationReload(from: old, to: new)
    #expect(reload.deferred.isEmpty, "\(reload.deferred)")
    #expect(reload.applied.alerts == new.alerts)
    #expect(!reload.changesChannels)
  }

  @Test("the same configuration changes nothing")
  func same() {
    let configuration = Self.configuration([Self.file("a"), Self.jack("fm")])
    let reload = ConfigurationReload(from: configuration, to: configuration)
    #expect(reload.unchanged == ["a", "fm"] && !reload.changesChannels && reload.deferred.isEmpty)
    #expect(reload.applied == configuration)
  }
}
