import Common
import Foundation
import TestSupport

@testable import Matcher

// Fuzzes the catalog reader (Catalog+File, Catalog+Validation) and what uses a catalog that loads: its summary, a
// stream matcher scanning a broadcast through it, and editing it (adding a track, removing one), as `catalog info`,
// `scan`, `run` and `catalog add|remove` do. Each input is a catalog file whose checksum is sealed again over the
// mutated bytes, so that mutations get past the checksum to the checks of every structure and parameter behind it.
// A file must either load and then work, or be refused with a `FormatError` marked as a catalog's and naming the
// file; a crash, a hang or an allocation without bound is a finding.

/// Two songs at 8 kHz: the seed catalogs are made of them, and the broadcast is three seconds of the second one, so
/// that a catalog that loads is matched against audio it holds.
let songs = (31...32).map { SyntheticSong(seed: UInt64($0), seconds: 6) }
let broadcast = Array(songs[1].render()[8000..<32000])
/// One second of another song, the track that editing adds.
let addition = SyntheticSong(seed: 34, seconds: 1).render()

/// Parameters with hashes of 12 bits, whose directory holds one whole hash per slot: the second seed catalog, so
/// that both ways of looking up postings (with residual hash bits, and in place) are fuzzed.
let coarseParameters: FingerprintParameters = {
  var p = FingerprintParameters()
  p.anchorStepSemitones = 4
  p.intervalStepSemitones = 4
  p.maxPairSemitones = 6
  return p
}()

@_cdecl("LLVMFuzzerInitialize")
public func initialize(
  _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> CInt {
  writeSeedsIfAsked {
    [
      ("two-songs.bmcat", Data(try MatcherHarness.catalog(of: songs).encoded())),
      ("two-songs-coarse.bmcat", Data(try MatcherHarness.catalog(of: songs, parameters: coarseParameters).encoded())),
    ]
  }
  return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCatalog(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  var bytes = Array(UnsafeBufferPointer(start: data, count: size))
  if bytes.count >= 24 {
    let version = bytes[8..<12].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    let checksum = bytes.withUnsafeBytes {
      CatalogChecksum.of(UnsafeRawBufferPointer(rebasing: $0[..<(bytes.count - 8)]), formatVersion: version)
    }
    withUnsafeBytes(of: checksum.littleEndian) { bytes.replaceSubrange((bytes.count - 8)..., with: $0) }
  }
  let path = bytes.withUnsafeBufferPointer { FuzzScratch.write($0, name: "fuzzed.bmcat") }
  let catalog: Catalog
  do {
    catalog = try Catalog.load(from: URL(fileURLWithPath: path))
  } catch {
    fuzzExpect(error.isCatalog && error.path == path && !error.reason.isEmpty, "unclear refusal: \(error)")
    return 0
  }
  _ = catalog.info(fileBytes: size)
  do {
    _ = try MatcherHarness.run(broadcast, catalog: catalog, bufferFrames: 8000)
  } catch {
    fatalError("a catalog that loaded cannot scan: \(error)")
  }
  let adding = CatalogBuilder(editing: catalog)
  do {
    let signature = try MatcherHarness.referenceSignature(of: addition, parameters: catalog.parameters)
    adding.add(signature: signature, key: "added", sourcePath: "added", metadata: TrackMetadata(title: "added"))
    _ = try adding.build()
  } catch {
    // A loaded catalog may end where its frame axis does, leaving no room for another track; anything else that
    // refuses the addition must say what is wrong.
    fuzzExpect(!"\(error)".isEmpty, "an addition refused without a reason")
  }
  let removing = CatalogBuilder(editing: catalog)
  if let first = catalog.tracks.first { _ = removing.remove(key: first.key) }
  do { _ = try removing.build() } catch { fatalError("removing a track from a catalog that loaded failed: \(error)") }
  return 0
}
