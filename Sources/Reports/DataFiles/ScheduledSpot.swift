/// One spot the traffic system scheduled: on which channel, when, which cart (or ISCI code), for whom, and how
/// long it is.
///
/// A value type: safe to pass between threads.
package struct ScheduledSpot: Sendable, Equatable {
  package var channel: String
  /// When it is scheduled to start, in milliseconds since 1970, UTC.
  package var scheduledAtMilliseconds: Int64
  /// The traffic system's cart number or ISCI code; matched without regard to case.
  package var cart: String
  package var advertiser: String
  package var title: String
  /// The spot's ordered length, in milliseconds; nil when the log does not give it.
  package var lengthMilliseconds: Int64?

  package init(
    channel: String, scheduledAtMilliseconds: Int64, cart: String, advertiser: String = "", title: String = "",
    lengthMilliseconds: Int64? = nil
  ) {
    self.channel = channel
    self.scheduledAtMilliseconds = scheduledAtMilliseconds
    self.cart = cart
    self.advertiser = advertiser
    self.title = title
    self.lengthMilliseconds = lengthMilliseconds
  }

  /// Whether two carts are the same cart: spelled alike but for case (`c9999` is `C9999`), in one traffic log or
  /// across imports.
  static func sameCart(_ a: String, _ b: String) -> Bool { cartKey(a) == cartKey(b) }

  /// The rows among `rows` (id and cart, the spots logged at this spot's channel and time) that hold this spot's cart
  /// spelled another way: an import replaces them (`PlayLogStore.importSchedule`).
  func otherSpellings(among rows: [(id: Int64, cart: String)]) -> [Int64] {
    rows.filter { $0.cart != cart && Self.sameCart($0.cart, cart) }.map(\.id)
  }

  /// The form of `cart` that is the same for every spelling of it (`sameCart`).
  static func cartKey(_ cart: String) -> String { cart.uppercased() }
}
