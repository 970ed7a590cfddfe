/// Receives the stretches an air watch closes, in stream order, on the thread that feeds its matcher.
public protocol AirStretchSink: AnyObject {
  func receive(_ stretch: AirStretch)
}
