import CJack
import RingBuffer
import Synchronization

/// Everything `JackPlayback`'s callbacks read or write besides their `JackClientState`, in raw memory allocated and
/// initialized before the client activates, and reached only through the callbacks' context pointer.
///
/// It holds no class, array, string or other reference-counted value: only counts, pointers into raw memory and
/// atomics. It is non-copyable so that its atomics stay at one address.
///
/// Threads: created and destroyed by `JackPlayback` on its control thread, while no callback can run (before
/// `jack_activate`, after `jack_client_close`). In between, the feeder thread writes the rings and sets
/// `audioQueued` and `endOfStream`; the JACK process thread reads the rings and writes `framesPlayed`,
/// `underrunFrames` and `cycles`; JACK's notification thread writes the common state's `xruns` and
/// `serverShutDown`; any thread may read the atomics.
struct JackPlaybackState: ~Copyable {
  /// The client, its ports and their rings, xruns and shutdown: what every client's callbacks share.
  let common: UnsafeMutablePointer<JackClientState>
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
  /// JACK's frame time of the cycle that played the first queued audio; valid once `firstAudioRecorded`.
  let firstAudioFrame = Atomic<UInt32>(0)
  let firstAudioRecorded = Atomic<Bool>(false)

  /// Allocates a state around `common`. Control thread, before activation.
  static func allocate(common: UnsafeMutablePointer<JackClientState>) -> UnsafeMutablePointer<JackPlaybackState> {
    let state = UnsafeMutablePointer<JackPlaybackState>.allocate(capacity: 1)
    state.initialize(to: JackPlaybackState(common: common))
    return state
  }

  /// Frees a state made by `allocate` (not its `common`). Control thread, only once no callback can run any more.
  static func deallocate(_ state: UnsafeMutablePointer<JackPlaybackState>) {
    state.deinitialize(count: 1)
    state.deallocate()
  }
}
