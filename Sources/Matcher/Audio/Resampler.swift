import CSoxr

/// Converts a mono stream from one sample rate to another with libsoxr (high quality, linear phase).
///
/// One thread at a time. Output is appended to a buffer the resampler owns and hands back on every call.
final class Resampler {
  let inputRate: Double
  let outputRate: Double
  private let soxr: soxr_t
  private var output: [Float]

  /// Throws when soxr rejects the rates (for example a rate of zero).
  init(inputRate: Double, outputRate: Double) throws(AudioError) {
    self.inputRate = inputRate
    self.outputRate = outputRate
    var error: soxr_error_t? = nil
    var io = soxr_io_spec(SOXR_FLOAT32_I, SOXR_FLOAT32_I)
    var quality = soxr_quality_spec(UInt(SOXR_HQ), 0)
    guard inputRate > 0, outputRate > 0,
      let handle = soxr_create(inputRate, outputRate, 1, &error, &io, &quality, nil), error == nil
    else {
      throw AudioError.unsupported("cannot resample from \(inputRate) Hz to \(outputRate) Hz")
    }
    soxr = handle
    output = [Float](repeating: 0, count: 8192)
  }

  deinit { soxr_delete(soxr) }

  /// Resamples `input`; the result is valid until the next call. Pass an empty buffer with `flush: true` at the end.
  func process(_ input: UnsafeBufferPointer<Float>, flush: Bool = false, _ body: (UnsafeBufferPointer<Float>) -> Void) {
    let needed = Int(Double(input.count) * outputRate / inputRate) + 64
    if output.count < needed { output = [Float](repeating: 0, count: needed) }
    var consumed = 0
    repeat {
      var used = 0
      var produced = 0
      output.withUnsafeMutableBufferPointer { out in
        if flush && consumed >= input.count {
          _ = soxr_process(soxr, nil, 0, nil, out.baseAddress, out.count, &produced)
        } else {
          _ = soxr_process(
            soxr, input.baseAddress.map { $0 + consumed }, input.count - consumed, &used, out.baseAddress, out.count,
            &produced)
        }
      }
      consumed += used
      if produced > 0 { output.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[0..<produced])) } }
      if produced == 0 && used == 0 { break }
    } while consumed < input.count || flush
  }
}
