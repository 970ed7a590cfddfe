import CJack
import RingBuffer
import Synchronization

/// Everything `JackCapture`'s callbacks read or write besides their `JackClientState`, in raw memory allocated and
/// initialized before the client activates, and reached only through the callbacks' context pointer.
///
/// It holds no class, array, string or other reference-counted value: only counts, pointers into raw memory and
/// atomics. It is non-copyable so that its atomics stay at one address.
///
/// Threads: created and destroyed by `JackCapture` on its control thread, while no callback can run (before
/// `jack_activate`, after `jack_client_close`). In between, the JACK process thread writes the rings, the overrun
/// counters, `framesProcessed`, `firstFrameTime`, `firstFrameRecorded` and `lastFrameTime`; JACK's notification
/// thread writes `graphChanges` (and the common state's `xruns` and `serverShutDown`); any thread may read the
/// atomics.
struct JackCaptureState: ~Copyable {
  /// The client, its ports and their rings, xruns and shutdown: what every client's callbacks share.
  let common: UnsafeMutablePointer<JackClientState>
  /// Samples dropped because a port's ring was full, one counter per port.
  let overruns: UnsafeMutablePointer<Atomic<Int>>
  /// Frames handled by the process callback since activation (per port: every port gets every frame).
  let framesProcessed = Atomic<Int>(0)
  /// `jack_last_frame_time` at the start of the latest cycle.
  let lastFrameTime = Atomic<UInt32>(0)
  /// `jack_last_frame_time` at the start of the first cycle: the frame time of the rings' first sample. Valid once
  /// `firstFrameRecorded` is true.
  let firstFrameTime = Atomic<UInt32>(0)
  /// Set (with release ordering) by the first cycle, after it stored `firstFrameTime`.
  let firstFrameRecorded = Atomic<Bool>(false)
  /// Ports registered or unregistered and connections made or broken anywhere on the server, since activation.
  let graphChanges = Atomic<Int>(0)

  /// Allocates and fills a state around `common`. Control thread, before activation.
  static func allocate(common: UnsafeMutablePointer<JackClientState>) -> UnsafeMutablePointer<JackCaptureState> {
    let count = common.pointee.portCount
    let overruns = UnsafeMutablePointer<Atomic<Int>>.allocate(capacity: max(count, 1))
    for i in 0..<count { (overruns + i).initialize(to: Atomic(0)) }
    let state = UnsafeMutablePointer<JackCaptureState>.allocate(capacity: 1)
    state.initialize(to: JackCaptureState(common: common, overruns: overruns))
    return state
  }

  /// Frees a state made by `allocate` (not its `common`). Control thread, only once no callback can run any more.
  static func deallocate(_ state: UnsafeMutablePointer<JackCaptureState>) {
    let count = state.pointee.common.pointee.portCount
    let overruns = state.pointee.overruns
    state.deinitialize(count: 1)
    state.deallocate()
    overruns.deinitialize(count: count)
    overruns.deallocate()
  }
}
