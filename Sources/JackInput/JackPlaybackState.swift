import CJack
import RingBuffer
import Synchronization

/// Everything `JackPlayback`'s callbacks read or write, in raw memory allocated and initialized before the client
/// activates, and reached only through the callbacks' context pointer.
///
/// It holds no class, array, string or other reference-counted value: only counts, pointers into raw memory and
/// atomics. It is non-copyable so that its atomics stay at one address.
///
/// Threads: created and destroyed by `JackPlayback` on its control thread, while no callback can run (before
/// `jack_activate`, after `jack_client_close`). In between, the feeder thread writes the rings and sets
/// `audioQueued` and `endOfStream`; the JACK process thread reads the rings and writes `framesPlayed`,
/// `underrunFrames` and `cycles`; JACK's notification thread writes `xruns` and `serverShutDown`; any thread may
/// read the atomics.
struct JackPlaybackState: ~Copyable {
  /// The client, for `jack_last_frame_time`.
  let client: OpaquePointer
  /// How many output ports; the length of `ports` and `rings`.
  let portCount: Int
  /// `jack_port_t *` of each output port.
  let ports: UnsafeMutablePointer<OpaquePointer?>
  /// The ring each port plays from.
  let rings: UnsafeMutablePointer<RingHandle>
  /// Frames taken from the rings and played since activation (per port: every port plays every frame).
  let framesPlayed = Atomic<Int>(0)
  /// Silent frames played because the rings ran dry after `audioQueued` and before `endOfStream`.
  let underrunFrames = Atomic<Int>(0)
  /// Process cycles run since activation.
  let cycles = Atomic<Int>(0)
  /// Set by the feeder once its first audio is in the rings; empty rings before that are not underruns.
  let audioQueued = Atomic<Bool>(false)
  /// Set by the feeder after its last audio is in the rings; empty rings after that are not underruns.
  let endOfStream = Atomic<Bool>(false)
  /// Xruns JACK reported.
  let xruns = Atomic<Int>(0)
  /// Set once the server has shut down or thrown the client out.
  let serverShutDown = Atomic<Bool>(false)
  /// JACK's frame time of the cycle that played the first queued audio; valid once `firstAudioRecorded`.
  let firstAudioFrame = Atomic<UInt32>(0)
  let firstAudioRecorded = Atomic<Bool>(false)

  /// Allocates and fills a state for `ports` and their `rings` (same count). Control thread, before activation.
  static func allocate(
    client: OpaquePointer, ports: [OpaquePointer], rings: [RingHandle]
  ) -> UnsafeMutablePointer<JackPlaybackState> {
    precondition(ports.count == rings.count, "one ring per port")
    let count = ports.count
    let portPointers = UnsafeMutablePointer<OpaquePointer?>.allocate(capacity: max(count, 1))
    let ringHandles = UnsafeMutablePointer<RingHandle>.allocate(capacity: max(count, 1))
    for i in 0..<count {
      (portPointers + i).initialize(to: ports[i])
      (ringHandles + i).initialize(to: rings[i])
    }
    let state = UnsafeMutablePointer<JackPlaybackState>.allocate(capacity: 1)
    state.initialize(to: JackPlaybackState(client: client, portCount: count, ports: portPointers, rings: ringHandles))
    return state
  }

  /// Frees a state made by `allocate`. Control thread, only once no callback can run any more.
  static func deallocate(_ state: UnsafeMutablePointer<JackPlaybackState>) {
    let count = state.pointee.portCount
    let ports = state.pointee.ports
    let rings = state.pointee.rings
    state.deinitialize(count: 1)
    state.deallocate()
    ports.deinitialize(count: count)
    ports.deallocate()
    rings.deinitialize(count: count)
    rings.deallocate()
  }
}
