import CJack
import RingBuffer
import Synchronization

/// Everything the JACK callbacks read or write, in raw memory allocated and initialized before the client
/// activates, and reached only through the callbacks' context pointer.
///
/// It holds no class, array, string or other reference-counted value: only counts, pointers into raw memory and
/// atomics. It is non-copyable so that its atomics stay at one address.
///
/// Threads: created and destroyed by `JackCapture` on its control thread, while no callback can run (before
/// `jack_activate`, after `jack_client_close`). In between, the JACK process thread writes the rings, the overrun
/// counters, `framesProcessed`, `firstFrameTime`, `firstFrameRecorded` and `lastFrameTime`; JACK's notification
/// thread writes `xruns`, `graphChanges` and `serverShutDown`; any thread may read the atomics.
struct JackCaptureState: ~Copyable {
  /// The client, for `jack_last_frame_time`.
  let client: OpaquePointer
  /// How many input ports; the length of `ports`, `rings` and `overruns`.
  let portCount: Int
  /// `jack_port_t *` of each input port.
  let ports: UnsafeMutablePointer<OpaquePointer?>
  /// The ring each port's samples go to.
  let rings: UnsafeMutablePointer<RingHandle>
  /// Samples dropped because a port's ring was full.
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
  /// Xruns JACK reported.
  let xruns = Atomic<Int>(0)
  /// Set once the server has shut down or thrown the client out.
  let serverShutDown = Atomic<Bool>(false)

  /// Allocates and fills a state for `ports` and their `rings` (same count). Control thread, before activation.
  static func allocate(
    client: OpaquePointer, ports: [OpaquePointer], rings: [RingHandle]
  ) -> UnsafeMutablePointer<JackCaptureState> {
    precondition(ports.count == rings.count, "one ring per port")
    let count = ports.count
    let portPointers = UnsafeMutablePointer<OpaquePointer?>.allocate(capacity: max(count, 1))
    let ringHandles = UnsafeMutablePointer<RingHandle>.allocate(capacity: max(count, 1))
    let overruns = UnsafeMutablePointer<Atomic<Int>>.allocate(capacity: max(count, 1))
    for i in 0..<count {
      (portPointers + i).initialize(to: ports[i])
      (ringHandles + i).initialize(to: rings[i])
      (overruns + i).initialize(to: Atomic(0))
    }
    let state = UnsafeMutablePointer<JackCaptureState>.allocate(capacity: 1)
    state.initialize(
      to: JackCaptureState(
        client: client, portCount: count, ports: portPointers, rings: ringHandles, overruns: overruns))
    return state
  }

  /// Frees a state made by `allocate`. Control thread, only once no callback can run any more.
  static func deallocate(_ state: UnsafeMutablePointer<JackCaptureState>) {
    let count = state.pointee.portCount
    let ports = state.pointee.ports
    let rings = state.pointee.rings
    let overruns = state.pointee.overruns
    state.deinitialize(count: 1)
    state.deallocate()
    ports.deinitialize(count: count)
    ports.deallocate()
    rings.deinitialize(count: count)
    rings.deallocate()
    overruns.deinitialize(count: count)
    overruns.deallocate()
  }
}
