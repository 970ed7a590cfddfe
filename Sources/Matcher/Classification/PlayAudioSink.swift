/// Receives the air audio of ended catalog plays, on the thread that feeds the matcher.
public protocol PlayAudioSink: AnyObject {
  func receive(_ audio: PlayAudio)
}
