/// One webhook of the `alerts` section: where to POST each alert, and which kinds.
///
/// JSON: `{url: "https://hooks.example.org/radio", kinds: ["silence", "source_down"]}`; without `kinds`, every kind.
///
/// Threads: a value; any thread.
struct AlertWebhookSettings: Codable, Sendable, Equatable {
  /// An http:// or https:// URL. Required.
  var url: String
  /// The kinds posted; nil for all.
  var kinds: [AlertKind]?

  enum CodingKeys: String, CodingKey, CaseIterable {
    case url
    case kinds
  }

  init(url: String, kinds: [AlertKind]? = nil) {
    self.url = url
    self.kinds = kinds
  }

  init(from decoder: any Decoder) throws {
    try decoder.rejectUnknownKeys(known: CodingKeys.allCases.map(\.rawValue))
    let c = try decoder.container(keyedBy: CodingKeys.self)
    url = try c.decode(String.self, forKey: .url)
    kinds = try c.decodeIfPresent([AlertKind].self, forKey: .kinds)
  }

  /// Whether an alert of `kind` goes to this webhook.
  func takes(_ kind: AlertKind) -> Bool { kinds?.contains(kind) ?? true }
}
