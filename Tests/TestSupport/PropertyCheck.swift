import Foundation

/// Seeded property tests: many random cases from one seed, so that a failure can be replayed exactly. The seed is
/// fixed by default (CI is reproducible) and can be changed with `PROPERTY_SEED=…` to explore further; every failure
/// message names the seed and the case, and `PROPERTY_CASES=…` changes how many cases run.
public enum PropertyCheck {
  /// The seed this run uses: `PROPERTY_SEED` when set, else a fixed default.
  public static var seed: UInt64 {
    ProcessInfo.processInfo.environment["PROPERTY_SEED"].flatMap { UInt64($0) } ?? 0x5EED_2026
  }

  /// How many cases a property runs: `PROPERTY_CASES` when set, else `defaultCases`.
  public static func cases(_ defaultCases: Int) -> Int {
    ProcessInfo.processInfo.environment["PROPERTY_CASES"].flatMap { Int($0) } ?? defaultCases
  }

  /// A generator for case `index` of a property: each case has its own stream, derived from the run's seed, so that
  /// one case replays alone.
  public static func generator(case index: Int, seed: UInt64 = seed) -> SeededGenerator {
    var mixer = SeededGenerator(seed: seed ^ (UInt64(index) &* 0x9E37_79B9_7F4A_7C15))
    return SeededGenerator(seed: mixer.next())
  }

  /// Where a failing case came from, for a failure message: "seed 0x5EED2026, case 17 (PROPERTY_SEED=…)".
  public static func origin(case index: Int, seed: UInt64 = seed) -> String {
    "seed \(seed), case \(index) (replay with PROPERTY_SEED=\(seed))"
  }
}
