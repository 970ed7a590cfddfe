import Foundation
import Testing

@testable import MonitorKit

@Suite("ChannelSource")
struct ChannelSourceTests {
  @Test(
    "Every string form reads as its source",
    arguments: [
      ("jack", ChannelSource.jack(JackSource(stereo: true))),
      ("jack-mono", .jack(JackSource(stereo: false))),
      (
        "jack:system:capture_1,system:capture_2",
        .jack(JackSource(stereo: true, connect: ["system:capture_1", "system:capture_2"]))
      ),
      ("jack-mono:usb tuner:capture 1", .jack(JackSource(stereo: false, connect: ["usb tuner:capture 1"]))),
      ("jack~^system:capture_[12]$", .jack(JackSource(stereo: true, connectPattern: "^system:capture_[12]$"))),
      ("jack-mono~tuner:.*,x", .jack(JackSource(stereo: false, connectPattern: "tuner:.*,x"))),
      ("http://radio.example.org:8000/live", .stream(url: "http://radio.example.org:8000/live")),
      ("https://radio.example.org/live.mp3?x=1", .stream(url: "https://radio.example.org/live.mp3?x=1")),
      ("rtsp://host:554/live", .stream(url: "rtsp://host:554/live")),
      ("rtmp://host/app/stream", .stream(url: "rtmp://host/app/stream")),
      ("srt+udp://host:9000", .stream(url: "srt+udp://host:9000")),
      ("file:demo.ogg", .file(path: "demo.ogg", loop: false)),
      ("file:/music/a b:c.ogg", .file(path: "/music/a b:c.ogg", loop: false)),
      ("file+loop:/var/lib/demo.ogg", .file(path: "/var/lib/demo.ogg", loop: true)),
    ])
  func stringForm(text: String, source: ChannelSource) throws {
    #expect(try ChannelSource(parsing: text) == source)
    // The JSON `source` key takes the same strings.
    let json = try JSONEncoder().encode([text])
    #expect(try JSONDecoder().decode([ChannelSource].self, from: json) == [source])
  }

  @Test(
    "A malformed string form is refused, saying what is wrong",
    arguments: [
      ("", "is not a channel source"),
      ("jackd", "is not a channel source"),
      ("jack-stereo", "is not a channel source"),
      ("radio.example.org/live.mp3", "is not a channel source"),
      ("://host/live", "is not a channel source"),
      ("3d://host/live", "is not a channel source"),
      ("http://", "is not a channel source"),
      ("icecast://source:pw@host:8000/mount", "give the stream's own http:// or https:// URL"),
      ("Jack", "is not a channel source"),
      ("jack:", "not a full JACK port name"),
      ("jack:system:capture_1", "connects two source ports (left, then right), not 1"),
      ("jack:a:1,a:2,a:3", "not 3"),
      ("jack-mono:a:1,a:2", "connects one source port, not 2"),
      ("jack:capture_1,capture_2", "`capture_1` is not a full JACK port name CLIENT:PORT"),
      ("jack:system:capture_1,", "`` is not a full JACK port name"),
      ("jack~", "is empty"),
      ("jack-mono~(unclosed", "not a POSIX extended regular expression"),
      ("file:", "name the file after `file:`"),
      ("file+loop:", "name the file after `file+loop:`"),
    ])
  func badStringForm(text: String, problem: String) {
    let error = #expect(throws: UsageError.self) { try ChannelSource(parsing: text) }
    #expect(error?.description.contains("`\(text)`") == true, "\(error?.description ?? "")")
    #expect(error?.description.contains(problem) == true, "\(error?.description ?? "")")
  }

  @Test("An unknown form lists every accepted form")
  func acceptedFormsListed() {
    let error = #expect(throws: UsageError.self) { try ChannelSource(parsing: "alsa:hw:0") }
    for form in [
      "jack ", "jack-mono ", "jack:SRC_L,SRC_R", "jack-mono:SRC", "jack~REGEX", "jack-mono~REGEX", "https://",
      "scheme://", "file:PATH", "file+loop:PATH",
    ] {
      #expect(error?.description.contains(form) == true, "missing \(form)")
    }
  }

  @Test("The object forms read as their sources, with their defaults")
  func objectForm() throws {
    let json = """
      [
        {jack: {}},
        {jack: {ports: "mono", connect: ["system:capture_1"]}},
        {jack: {ports: "stereo", connectPattern: "^system:"}},
        {stream: {url: "https://example.org/live"}},
        {file: {path: "a.ogg"}},
        {file: {path: "b.ogg", loop: true}},
      ]
      """
    let decoder = JSONDecoder()
    decoder.allowsJSON5 = true
    let sources = try decoder.decode([ChannelSource].self, from: Data(json.utf8))
    #expect(
      sources == [
        .jack(JackSource(stereo: true)),
        .jack(JackSource(stereo: false, connect: ["system:capture_1"])),
        .jack(JackSource(stereo: true, connectPattern: "^system:")),
        .stream(url: "https://example.org/live"),
        .file(path: "a.ogg", loop: false),
        .file(path: "b.ogg", loop: true),
      ])
    // Written back as objects, they read back the same.
    #expect(try decoder.decode([ChannelSource].self, from: JSONEncoder().encode(sources)) == sources)
  }

  @Test("A stereo channel has ports NAME_L and NAME_R, a mono channel one port NAME")
  func portNames() {
    #expect(JackSource(stereo: true).portNames(channel: "fm1") == ["fm1_L", "fm1_R"])
    #expect(JackSource(stereo: false).portNames(channel: "am") == ["am"])
    #expect(JackSource(stereo: true).portCount == 2)
    #expect(JackSource(stereo: false).portCount == 1)
  }

  @Test("Source ports: the exact list as given, else the first pattern matches by name, else none")
  func sourcePorts() {
    let available = ["system:capture_4", "system:capture_2", "usb:capture_1", "system:capture_1", "system:playback_1"]
    let exact = JackSource(stereo: true, connect: ["system:capture_3", "system:capture_4"])
    #expect(exact.sourcePorts(among: available) == ["system:capture_3", "system:capture_4"])
    let stereo = JackSource(stereo: true, connectPattern: "^system:capture_")
    #expect(stereo.sourcePorts(among: available) == ["system:capture_1", "system:capture_2"])
    let mono = JackSource(stereo: false, connectPattern: "capture_[0-9]$")
    #expect(mono.sourcePorts(among: available) == ["system:capture_1"])
    let unanchored = JackSource(stereo: true, connectPattern: "usb")
    #expect(unanchored.sourcePorts(among: available) == ["usb:capture_1"])
    #expect(JackSource(stereo: true).sourcePorts(among: available).isEmpty)
  }

  @Test("POSIX extended syntax: alternation and intervals work; a bad pattern names the problem")
  func posixRegex() throws {
    let regex = try POSIXRegex("^(system|usb):capture_[0-9]{2}$")
    #expect(regex.matches("usb:capture_12"))
    #expect(!regex.matches("usb:capture_1"))
    #expect(!regex.matches("x-system:capture_12"))
    let error = #expect(throws: POSIXRegex.SyntaxError.self) { try POSIXRegex("a{2") }
    #expect(error?.message.isEmpty == false)
  }
}
