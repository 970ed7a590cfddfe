/// One average audience for every play (`reports.soundExchange.listenersPerPlay`): the figure a station uses when
/// it has nothing better.
///
/// A value type: safe to pass between threads.
package struct ListenersPerPlay: AudienceFigure {
  package var listeners: Double

  package init(_ listeners: Double) { self.listeners = listeners }

  package func performances(startMilliseconds: Int64, endMilliseconds: Int64) -> Double? { listeners }

  package var source: String { "listenersPerPlay \(FixedDecimal.format(listeners, places: 1)) per play" }
}
