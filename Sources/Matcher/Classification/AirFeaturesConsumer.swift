/// Receives classification windows' features, in stream order, on the thread that feeds the front end.
public protocol AirFeaturesConsumer: AnyObject {
  func consume(_ features: AirFeatures)
}
