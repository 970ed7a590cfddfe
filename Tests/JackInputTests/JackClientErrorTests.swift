import CJack
import Foundation
import JackInput
import Testing

/// `JackClientError`: the errors `JackCapture` throws before it ever reaches a server, and what they say.
@Suite struct JackClientErrorTests {
  @Test("Opening on a server that does not exist says the server is not running and how to start one")
  func missingServerIsReportedWithAdvice() {
    let name = "bmtest-missing-\(getpid())"
    #expect(throws: JackClientError.serverNotRunning(server: name)) {
      try JackCapture(clientName: "bmcap", serverName: name, portNames: ["ch1_L"])
    }
    let message = JackClientError.serverNotRunning(server: name).description
    #expect(message.contains("JACK server \"\(name)\" not running"))
    #expect(message.contains("jackd -n \(name) -d dummy"))
    #expect(message.contains("JACK_DEFAULT_SERVER"))
  }

  @Test("The default server's error names jackd and JACK_DEFAULT_SERVER")
  func defaultServerMessage() {
    let message = JackClientError.serverNotRunning(server: nil).description
    #expect(message.hasPrefix("JACK server not running: start it with `jackd -d dummy`"))
    #expect(message.contains("JACK_DEFAULT_SERVER"))
  }

  @Test("Empty, missing or repeated port names are rejected", arguments: [[], ["ch1_L", "ch1_L"], ["ch1_L", ""]])
  func badPortNamesAreRejected(names: [String]) {
    #expect(throws: JackClientError.invalidPortNames(names)) {
      try JackCapture(clientName: "bmcap", serverName: "bmtest-unused", portNames: names)
    }
  }

  @Test("A ring duration that is not a positive number of seconds is rejected", arguments: [0, -1, Double.nan])
  func badRingSecondsAreRejected(seconds: Double) {
    #expect {
      try JackCapture(clientName: "bmcap", serverName: "bmtest-unused", portNames: ["a"], ringSeconds: seconds)
    } throws: { error in
      guard case .invalidRingSize = error as? JackClientError else { return false }
      return true
    }
  }

  @Test("JACK status bits are spelled out in the open-failure message")
  func statusBitsAreSpelledOut() {
    let status = JackFailure.rawValue | JackVersionError.rawValue
    let message = JackClientError.clientOpenFailed(client: "bmcap", server: "x", status: status).description
    #expect(message.contains("status 0x401"))
    #expect(message.contains("overall failure"))
    #expect(message.contains("version mismatch"))
  }

  @Test("A destination that is missing lists the server's audio inputs, or says to start a program that has some")
  func destinationNotFoundMessage() {
    let listed = JackClientError.destinationNotFound("mon:in", available: ["a:in_1", "b:in_2"]).description
    #expect(
      listed
        == "JACK has no audio input port \"mon:in\" to play into; use one of the server's audio input ports: a:in_1, b:in_2"
    )
    let none = JackClientError.destinationNotFound("mon:in", available: []).description
    #expect(none.contains("start the program that should receive the audio first"))
  }
}
