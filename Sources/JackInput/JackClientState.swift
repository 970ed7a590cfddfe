import CJack
import RingBuffer
import Synchronization

/// What the callbacks of every JACK client of this module read or write the same way, in raw memory allocated and
/// initialized before the client activates: the client, its ports and the ring of each, and the xrun and shutdown
/// notifications. `JackCaptureState` and `JackPlaybackState` point to it and add their own counters; `jackXrun` and
/// `jackShutdown` get it as their context.
///
/// It holds no class, array, string or other reference-counted value: only counts, pointers into raw memory and
/// atomics. It is non-copyable so that its atomics stay at one address.
///
/// Threads: created and destroyed by `JackClientSetup` and its owner on a control thread, while no callback can run
/// (before `jack_activate`, after `jack_client_close`). In between, the JACK process thread uses the ports and the
/// rings; JACK's notification thread writes `xruns` and `serverShutDown`; any thread may read the atomics.
struct JackClientState: ~Copyable {
  /// The client, for `jack_last_frame_time`.
  let client: OpaquePointer
  /// How many ports; the length of `ports` and `rings`.
  let portCount: Int
  /// `jack_port_t *` of each port.
  let ports: UnsafeMutablePointer<OpaquePointer?>
  /// The ring of each port (a capture writes it, a playback reads it).
  let rings: UnsafeMutablePointer<RingHandle>
  /// Xruns JACK reported.
  let xruns = Atomic<Int>(0)
  /// Set once the server has shut down or thrown the client out.
  let serverShutDown = Atomic<Bool>(false)

  /// Allocates and fills a state for `ports` and their `rings` (same count). Control thread, before activation.
  static func allocate(
    client: OpaquePointer, ports: [OpaquePointer], rings: [RingHandle]
  ) -> UnsafeMutablePointer<JackClientState> {
    precondition(ports.count == rings.count, "one ring per port")
    let count = ports.count
    let portPointers = UnsafeMutablePointer<OpaquePointer?>.allocate(capacity: max(count, 1))
    let ringHandles = UnsafeMutablePointer<RingHandle>.allocate(capacity: max(count, 1))
    for i in 0..<count {
      (portPointers + i).initialize(to: ports[i])
      (ringHandles + i).initialize(to: rings[i])
    }
    let state = UnsafeMutablePointer<JackClientState>.allocate(capacity: 1)
    state.initialize(to: JackClientState(client: client, portCount: count, ports: portPointers, rings: ringHandles))
    return state
  }

  /// Frees a state made by `allocate`. Control thread, only once no callback can run any more.
  static func deallocate(_ state: UnsafeMutablePointer<JackClientState>) {
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
