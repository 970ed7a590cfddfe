// THE REAL-TIME BOUNDARY. The functions in this file are called by JACK's threads through C function pointers.
//
// `jackProcess` (capture) and `jackPlaybackProcess` (playback) run on the JACK process thread, under a deadline (one
// period, ~21 ms at 1024 frames / 48 kHz). They, and everything they call, must NEVER:
//   - allocate or free memory (no malloc, no `allocate`, no Swift object or array or string creation),
//   - take a lock or wait (no Mutex, no DispatchQueue, no semaphore, no `jack_*` call that is not RT-safe),
//   - log or print, or do any I/O,
//   - touch Swift arrays, strings, classes, closures, existentials or anything else reference-counted (ARC),
//   - call into Foundation, Dispatch or Swift concurrency, or into generic code that is not inlined,
//   - trap: no force-unwrap, no precondition, no arithmetic that can overflow-check.
// They may only read the preallocated state behind their context pointer (`JackCaptureState`,
// `JackPlaybackState`, and the `JackClientState` each points to), call `jack_port_get_buffer` and `jack_last_frame_time`, write rings through
// `RingHandle.write` (capture) or read them through `RingHandle.availableToRead` and `RingHandle.read` (playback),
// fill with zeros, and update atomics. The `RingHandle` members are direct calls (this toolchain does not inline a
// `package` function across modules) whose release bodies are atomic loads, a copy loop and one atomic store.
//
// `jackShutdown` (JACK's notification thread, or a signal context; capture and playback alike) only sets a flag;
// `jackXrun` (capture and playback alike), `jackPortRegistered` and `jackPortConnected` (notification thread) only
// bump a counter. The same rules apply to them.
//
// These are top-level, non-isolated functions, not closures: a closure written in `main.swift` or in a
// `@MainActor` context would carry an executor check that traps on JACK's threads.
//
// Check after changing anything here: `swift build -c release --target JackInput`, then
// `objdump -d -r --no-show-raw-insn .build/release/JackInput.build/JackRealtimeCallbacks.swift.o | swift demangle`
// must show no call to swift_retain/swift_release/swift_allocObject/malloc/pthread_*/swift_task_*: only
// jack_port_get_buffer, jack_last_frame_time, RingHandle.write, RingHandle.read, RingHandle.availableToRead and
// memset (a zero-fill loop may become one). Check the RingHandle members in
// `.build/release/RingBuffer.build/RingHandle.swift.o` the same way: their bodies must call nothing (memmove at most).

import CJack
import RingBuffer
import Synchronization

/// JACK process callback: copies every input port's buffer into its ring. JACK process thread only.
/// - Parameter arg: a `JackCaptureState` pointer, set with `jack_set_process_callback`.
func jackProcess(_ nframes: jack_nframes_t, _ arg: UnsafeMutableRawPointer?) -> Int32 {
  guard let arg else { return 0 }
  let state = arg.assumingMemoryBound(to: JackCaptureState.self)
  let common = state.pointee.common
  let count = Int(nframes)
  let portCount = common.pointee.portCount
  var i = 0
  while i < portCount {
    if let buffer = jack_port_get_buffer(common.pointee.ports[i], nframes) {
      let samples = UnsafePointer<Float>(buffer.assumingMemoryBound(to: Float.self))
      let dropped = common.pointee.rings[i].write(samples, count: count)
      if dropped > 0 {
        state.pointee.overruns[i].wrappingAdd(dropped, ordering: .relaxed)
      }
    }
    i &+= 1
  }
  let frameTime = jack_last_frame_time(common.pointee.client)
  if !state.pointee.firstFrameRecorded.load(ordering: .relaxed) {
    state.pointee.firstFrameTime.store(frameTime, ordering: .relaxed)
    state.pointee.firstFrameRecorded.store(true, ordering: .releasing)
  }
  state.pointee.lastFrameTime.store(frameTime, ordering: .relaxed)
  state.pointee.framesProcessed.wrappingAdd(count, ordering: .releasing)
  return 0
}

/// JACK shutdown callback of a capture or a playback: the server is gone or dropped this client. Only sets a flag.
/// - Parameter arg: a `JackClientState` pointer, set with `jack_on_shutdown`.
func jackShutdown(_ arg: UnsafeMutableRawPointer?) {
  guard let arg else { return }
  arg.assumingMemoryBound(to: JackClientState.self).pointee.serverShutDown.store(true, ordering: .releasing)
}

/// JACK xrun callback of a capture or a playback: counts one xrun. Only increments a counter.
/// - Parameter arg: a `JackClientState` pointer, set with `jack_set_xrun_callback`.
func jackXrun(_ arg: UnsafeMutableRawPointer?) -> Int32 {
  guard let arg else { return 0 }
  arg.assumingMemoryBound(to: JackClientState.self).pointee.xruns.wrappingAdd(1, ordering: .relaxed)
  return 0
}

/// JACK port registration callback: a port appeared or went away somewhere on the server. Only increments a counter.
/// JACK's notification thread.
/// - Parameter arg: a `JackCaptureState` pointer, set with `jack_set_port_registration_callback`.
func jackPortRegistered(_ port: jack_port_id_t, _ registered: Int32, _ arg: UnsafeMutableRawPointer?) {
  guard let arg else { return }
  arg.assumingMemoryBound(to: JackCaptureState.self).pointee.graphChanges.wrappingAdd(1, ordering: .releasing)
}

/// JACK port connect callback: two ports were connected or disconnected. Only increments a counter.
/// JACK's notification thread.
/// - Parameter arg: a `JackCaptureState` pointer, set with `jack_set_port_connect_callback`.
func jackPortConnected(
  _ a: jack_port_id_t, _ b: jack_port_id_t, _ connected: Int32, _ arg: UnsafeMutableRawPointer?
) {
  guard let arg else { return }
  arg.assumingMemoryBound(to: JackCaptureState.self).pointee.graphChanges.wrappingAdd(1, ordering: .releasing)
}

/// JACK process callback of `JackPlayback`: copies the same number of frames from every port's ring into its port
/// buffer (so the channels stay aligned), and fills what the rings could not give with silence. Counts the silent
/// frames as underruns once audio was queued and until the end of the stream was signalled. JACK process thread
/// only.
/// - Parameter arg: a `JackPlaybackState` pointer, set with `jack_set_process_callback`.
func jackPlaybackProcess(_ nframes: jack_nframes_t, _ arg: UnsafeMutableRawPointer?) -> Int32 {
  guard let arg else { return 0 }
  let state = arg.assumingMemoryBound(to: JackPlaybackState.self)
  let common = state.pointee.common
  // Read before the rings: audio the feeder queued after signalling the end cannot exist, and a ring that runs dry
  // in the cycle that sees `endOfStream` is the end of the stream, not an underrun.
  let counting =
    state.pointee.audioQueued.load(ordering: .acquiring) && !state.pointee.endOfStream.load(ordering: .acquiring)
  let count = Int(nframes)
  let portCount = common.pointee.portCount
  var ready = count
  var i = 0
  while i < portCount {
    let available = common.pointee.rings[i].availableToRead
    if available < ready { ready = available }
    i &+= 1
  }
  i = 0
  while i < portCount {
    if let buffer = jack_port_get_buffer(common.pointee.ports[i], nframes) {
      let out = buffer.assumingMemoryBound(to: Float.self)
      var filled = common.pointee.rings[i].read(into: out, count: ready)
      while filled < count {
        out[filled] = 0
        filled &+= 1
      }
    }
    i &+= 1
  }
  if ready > 0 && !state.pointee.firstAudioRecorded.load(ordering: .relaxed) {
    state.pointee.firstAudioFrame.store(jack_last_frame_time(common.pointee.client), ordering: .relaxed)
    state.pointee.firstAudioRecorded.store(true, ordering: .releasing)
  }
  state.pointee.framesPlayed.wrappingAdd(ready, ordering: .releasing)
  if counting && ready < count {
    state.pointee.underrunFrames.wrappingAdd(count &- ready, ordering: .relaxed)
  }
  state.pointee.cycles.wrappingAdd(1, ordering: .releasing)
  return 0
}
