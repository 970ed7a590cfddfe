import Testing

@testable import Matcher
@testable import MonitorKit

@Suite("catalog info's figures")
struct CatalogCommandInfoTests {
  @Test("An index of more than 4 GB (10,000 hours) is reported in full, not cut to 32 bits")
  func indexBytesPast32Bits() {
    let info = Catalog.Info(
      trackCount: 116_994, hours: 10_000.6, hashCount: 617_380_047, indexBytes: 5_057_069_460,
      fileBytes: 5_118_236_844, hasTripletIndex: true)
    #expect(CatalogCommand.indexBytesLine(info) == "index bytes:  5057069460 (0.51 MB per hour of audio)")
  }

  @Test("The format line names the file's version, and for an older one what `catalog upgrade` gains")
  func formatLine() {
    var info = Catalog.Info(
      trackCount: 1, hours: 1, hashCount: 1, indexBytes: 1, fileBytes: nil, hasTripletIndex: true)
    #expect(CatalogCommand.formatLine(info) == "format:       version \(Catalog.formatVersion)")
    info.formatVersion = 5
    #expect(
      CatalogCommand.formatLine(info)
        == "format:       version 5, with a checksum that is slower to check on every load; run `catalog upgrade`")
    info.formatVersion = 4
    #expect(
      CatalogCommand.formatLine(info)
        == "format:       version 4, without the recordings' quiet tails: songs whose tails are masked on the air are "
        + "logged ending early; `catalog add` the same files to a new catalog to measure them")
    info.formatVersion = 3
    #expect(
      CatalogCommand.formatLine(info)
        == "format:       version 3, with the tracks in JSON: twice as slow to load; run `catalog upgrade`")
    info.formatVersion = 2
    #expect(
      CatalogCommand.formatLine(info)
        == "format:       version 2, with index directories twice the size; run `catalog upgrade`")
    info.formatVersion = 1
    info.hasTripletIndex = false
    #expect(CatalogCommand.formatLine(info).hasPrefix("format:       version 1, without the triplet index"))
  }
}
