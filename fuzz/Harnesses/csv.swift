import Foundation
import Matcher

@testable import MonitorKit

// Fuzzes the metadata CSV reader (MetadataSheet), as `catalog add --metadata tracks.csv` uses it: the sheet is read,
// then each file it names is looked up and its metadata encoded as the catalog's header stores it. A sheet must
// either be read or be refused with an error naming the file; a crash, a hang or an allocation without bound is a
// finding.

@_cdecl("LLVMFuzzerInitialize")
public func initialize(
  _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> CInt {
  writeSeedsIfAsked {
    let tracks = [
      "path,title,artist,album,isrc,label,kind,bpm",
      "songs/one.wav,One,The Ones,First,usabc2400001,Label A,song,120",
      #""ads/spot, 30s.mp3","Spot ""30""",,,,,ad,"#,
      "/srv/audio/jingle.flac,Jingle,,,,,jingle,",
    ].joined(separator: "\r\n")
    let quirks = "\u{FEFF}Kind,PATH,Title\r\nother,a.wav,\r\n\r\nunknown,\"b\nc.wav\",Ü\r\n"
    return [("tracks.csv", Data(tracks.utf8)), ("quirks.csv", Data(quirks.utf8))]
  }
  return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMetadataSheet(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let path = FuzzScratch.write(UnsafeBufferPointer(start: data, count: size), name: "tracks.csv")
  let sheet: MetadataSheet
  do {
    sheet = try MetadataSheet(contentsOf: URL(fileURLWithPath: path))
  } catch {
    fuzzExpect("\(error)".contains(path), "a refusal that names no file: \(error)")
    return 0
  }
  for url in sheet.paths {
    guard let metadata = sheet.metadata(for: url) else { fatalError("no metadata for \(url.path), a path it names") }
    do { _ = try JSONEncoder().encode(metadata) } catch { fatalError("metadata that cannot be stored: \(error)") }
  }
  return 0
}
