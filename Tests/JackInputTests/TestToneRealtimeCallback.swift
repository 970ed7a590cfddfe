// Real-time side of `TestToneClient`: runs on JACK's process thread. Same rules as the capture's callback: no
// allocation, lock, print, Swift array/string/class/ARC or Foundation here; only the preallocated state behind the
// context pointer, `jack_port_get_buffer` and atomics. A top-level function, never a closure.

import CJack
import Synchronization

/// Preallocated state of `TestToneClient`'s callback, in raw memory.
struct TestToneState: ~Copyable {
  /// The output port.
  let port: OpaquePointer
  /// Index of the next ramp sample to output.
  let next = Atomic<Int>(0)
}

/// The ramp the tone client plays: 1, 2, ..., 2^20, then 1 again. Never 0, exact in a Float.
func testRampValue(_ index: Int) -> Float {
  Float(index & 0xF_FFFF) + 1
}

/// The value that follows `value` in the ramp.
func testRampSuccessor(_ value: Float) -> Float {
  value >= Float(0x10_0000) ? 1 : value + 1
}

/// JACK process callback of `TestToneClient`: writes the next `nframes` ramp values to its output port.
func testToneProcess(_ nframes: jack_nframes_t, _ arg: UnsafeMutableRawPointer?) -> Int32 {
  guard let arg else { return 0 }
  let state = arg.assumingMemoryBound(to: TestToneState.self)
  guard let buffer = jack_port_get_buffer(state.pointee.port, nframes) else { return 0 }
  let out = buffer.assumingMemoryBound(to: Float.self)
  let count = Int(nframes)
  var index = state.pointee.next.load(ordering: .relaxed)
  var i = 0
  while i < count {
    out[i] = testRampValue(index)
    index &+= 1
    i &+= 1
  }
  state.pointee.next.store(index, ordering: .relaxed)
  return 0
}
