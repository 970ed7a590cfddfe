// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "broadcast-monitor",
  products: [
    .executable(name: "broadcast-monitor", targets: ["BroadcastMonitor"])
  ],
  targets: [
    // C libraries from Debian's packages, one system-library target each (module map + shim header).
    .systemLibrary(name: "CFFTW", path: "Sources/CFFTW"),
    .systemLibrary(name: "CSQLite", path: "Sources/CSQLite"),
    .systemLibrary(name: "CJack", path: "Sources/CJack"),
    .systemLibrary(name: "CSoxr", path: "Sources/CSoxr"),
    .systemLibrary(name: "CPostgres", path: "Sources/CPostgres", pkgConfig: "libpq"),

    .target(name: "RingBuffer"),
    .target(name: "JackInput", dependencies: ["CJack", "RingBuffer"]),
    .target(name: "Matcher", dependencies: ["CFFTW", "CSoxr"]),
    .target(name: "Reports", dependencies: ["CSQLite", "CPostgres"]),
    .executableTarget(
      name: "BroadcastMonitor",
      dependencies: ["Matcher", "Reports", "JackInput", "RingBuffer"]
    ),
    .executableTarget(
      name: "Benchmarks", dependencies: ["Matcher", "Reports", "JackInput"], path: "bench/Benchmarks"),

    .target(name: "TestSupport", dependencies: ["Matcher"], path: "Tests/TestSupport"),
    .target(
      name: "JackTestSupport", dependencies: ["CJack", "JackInput", "RingBuffer", "TestSupport"],
      path: "Tests/JackTestSupport"),
    .testTarget(name: "MatcherTests", dependencies: ["Matcher", "TestSupport"]),
    .testTarget(name: "ReportsTests", dependencies: ["Reports", "TestSupport"]),
    .testTarget(name: "BenchmarksTests", dependencies: ["Benchmarks", "Matcher", "TestSupport"]),
    .testTarget(name: "RingBufferTests", dependencies: ["RingBuffer"]),
    .testTarget(
      name: "JackInputTests", dependencies: ["JackInput", "RingBuffer", "JackTestSupport", "Matcher", "TestSupport"]),
    .testTarget(
      name: "BroadcastMonitorTests",
      dependencies: ["BroadcastMonitor", "Matcher", "Reports", "TestSupport", "JackInput", "JackTestSupport"]),
  ]
)

// Strict settings for every Swift target, applied in one place.
for target in package.targets where target.type != .system {
  var settings = target.swiftSettings ?? []
  settings.append(.unsafeFlags(["-warnings-as-errors"], .when(configuration: .debug)))
  if target.type == .regular || target.type == .executable {
    settings.append(.unsafeFlags(["-Ounchecked", "-wmo"], .when(configuration: .release)))
  }
  target.swiftSettings = settings
}
