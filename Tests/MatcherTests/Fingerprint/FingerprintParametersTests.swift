import Foundation
import Testing

@testable import Matcher

@Suite("FingerprintParameters")
struct FingerprintParametersTests {
  @Test("New parameters refine peak times; they survive a round trip through JSON")
  func refinedByDefault() throws {
    let parameters = FingerprintParameters()
    #expect(parameters.interpolatePeakTimes)
    let decoded = try JSONDecoder().decode(FingerprintParameters.self, from: JSONEncoder().encode(parameters))
    #expect(decoded == parameters)
  }

  @Test("Parameters written before interpolatePeakTimes existed read as whole-frame peak times")
  func olderCatalogs() throws {
    var object = try #require(
      JSONSerialization.jsonObject(with: JSONEncoder().encode(FingerprintParameters())) as? [String: Any])
    object["interpolatePeakTimes"] = nil
    let decoded = try JSONDecoder().decode(
      FingerprintParameters.self, from: JSONSerialization.data(withJSONObject: object))
    #expect(decoded.interpolatePeakTimes == false)
    var expected = FingerprintParameters()
    expected.interpolatePeakTimes = false
    #expect(decoded == expected)
  }
}
