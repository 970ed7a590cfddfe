/// A share required within a quota's qualifying plays: France's 40 % of songs in French must be at least half new
/// productions or new talent, so "new productions or new talent" is a sub-quota of 50 % of the francophone plays.
///
/// A value type: safe to pass between threads.
package struct QuotaSubQuota: Sendable, Equatable {
  /// Its name in the report, after the rule's (`France 40% francophone / new productions or new talent`).
  package var name: String
  /// What qualifies a play that already qualifies for the rule.
  package var criterion: QuotaCriterion
  /// The share of the rule's qualifying plays that must also qualify here, in percent.
  package var targetPercent: Double

  package init(name: String, criterion: QuotaCriterion, targetPercent: Double) {
    self.name = name
    self.criterion = criterion
    self.targetPercent = targetPercent
  }

  /// True when `qualifying` of `total` plays meet the target.
  package func isMet(qualifying: Int, total: Int) -> Bool {
    Double(qualifying) * 100 >= targetPercent * Double(total)
  }
}
