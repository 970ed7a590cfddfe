import Testing

@testable import MonitorKit

@Suite("StreamSource")
struct StreamSourceTests {
  @Test("ffmpeg's command line: -re and -stream_loop for files, a timeout for streams, mono f32le at the rate")
  func arguments() {
    let tail = ["-vn", "-ac", "1", "-af", "aresample=8000:resampler=soxr", "-f", "f32le", "-"]
    let common = ["-nostdin", "-hide_banner", "-v", "error", "-threads", "1"]
    #expect(
      StreamSource.network(url: "http://h:8000/live").ffmpegArguments(sampleRate: 8000, networkTimeoutSeconds: 20)
        == common + ["-rw_timeout", "20000000", "-i", "http://h:8000/live"] + tail)
    // RTSP's demuxer opens its sockets itself: it refuses -rw_timeout and takes its own -timeout.
    #expect(
      StreamSource.network(url: "RTSP://h/cam").ffmpegArguments(sampleRate: 8000, networkTimeoutSeconds: 20)
        == common + ["-timeout", "20000000", "-i", "RTSP://h/cam"] + tail)
    #expect(
      StreamSource.file(path: "/a b/c:d.ogg", loop: false).ffmpegArguments(sampleRate: 8000, networkTimeoutSeconds: 20)
        == common + ["-re", "-i", "file:/a b/c:d.ogg"] + tail)
    #expect(
      StreamSource.file(path: "x.ogg", loop: true).ffmpegArguments(sampleRate: 8000, networkTimeoutSeconds: 20)
        == common + ["-re", "-stream_loop", "-1", "-i", "file:x.ogg"] + tail)
  }

  @Test("Log lines never show a password")
  func description() {
    #expect(StreamSource.network(url: "http://u:secret@h:8000/x?a=b@c").description == "http://u:***@h:8000/x?a=b@c")
    #expect(StreamSource.network(url: "http://u@h/x").description == "http://u@h/x")
    #expect(StreamSource.network(url: "https://h/p:q@r").description == "https://h/p:q@r")
    #expect(StreamSource.file(path: "/m/x.ogg", loop: true).description == "file:/m/x.ogg (looped)")
    #expect(StreamSource.file(path: "/m/x.ogg", loop: false).description == "file:/m/x.ogg")
  }

  @Test("What is not a stream URL is refused with the reason and an example")
  func invalidURLs() throws {
    #expect(try StreamSource.network(checking: "rtmp://h/app/key") == .network(url: "rtmp://h/app/key"))
    for bad in [
      "localhost:8000/x", "://h/x", "http://", "file:///m/x.ogg", "ht tp://h/x", "http://h/a b", "icecast://h:8000/m",
    ] {
      let error = #expect(throws: StreamInputError.self) { try StreamSource.network(checking: bad) }
      #expect(error?.description.contains(bad) == true, "\(bad)")
      #expect(error?.description.contains("http://radio.example:8000/live.mp3") == true)
    }
  }
}
