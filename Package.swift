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
    .systemLibrary(name: "CXXHash", path: "Sources/CXXHash"),
    .systemLibrary(name: "CMicroHTTPD", path: "Sources/CMicroHTTPD"),
    .systemLibrary(name: "CSystemd", path: "Sources/CSystemd"),
    .systemLibrary(name: "CPostgres", path: "Sources/CPostgres", pkgConfig: "libpq"),
    // A software prefetch for the matcher's search (a header only: no library).
    .systemLibrary(name: "CPrefetch", path: "Sources/CPrefetch"),
    // glibc's close-from file action for posix_spawn, which Swift's Glibc module does not declare (a header only).
    .systemLibrary(name: "CSpawn", path: "Sources/CSpawn"),

    // What every module shares: configuration errors and strict JSON5 decoding, item kinds, files written in place,
    // the subprocess launcher (ffmpeg, ffprobe, alert commands).
    .target(name: "Common", dependencies: ["CSpawn"]),
    .target(name: "RingBuffer"),
    .target(name: "JackInput", dependencies: ["CJack", "RingBuffer"]),
    .target(name: "Matcher", dependencies: ["Common", "CFFTW", "CSoxr", "CXXHash", "CPrefetch"]),
    .target(name: "Reports", dependencies: ["Common", "CSQLite", "CPostgres"]),
    // The monitor: configuration, inputs, pipeline, play-log writer, commands and console. The executable only runs
    // it, so that the tests link the same code the product runs.
    .target(
      name: "MonitorKit",
      dependencies: ["Common", "Matcher", "Reports", "JackInput", "RingBuffer", "CMicroHTTPD", "CSystemd"],
      // The dashboard's files, compiled in through DashboardAssets+Files.swift (scripts/dashboard-assets.py).
      exclude: ["Service/Dashboard/Static"]),
    .executableTarget(name: "BroadcastMonitor", dependencies: ["MonitorKit"]),
    .executableTarget(
      name: "Benchmarks", dependencies: ["Common", "Matcher", "Reports", "JackInput"], path: "bench/Benchmarks"),

    .target(name: "TestSupport", dependencies: ["Common", "Matcher"], path: "Tests/TestSupport"),
    .target(
      name: "JackTestSupport", dependencies: ["CJack", "JackInput", "RingBuffer", "TestSupport"],
      path: "Tests/JackTestSupport"),
    .testTarget(name: "MatcherTests", dependencies: ["Common", "Matcher", "TestSupport"]),
    .testTarget(name: "CommonTests", dependencies: ["Common", "TestSupport"]),
    .testTarget(name: "ReportsTests", dependencies: ["Common", "Reports", "TestSupport"]),
    .testTarget(name: "BenchmarksTests", dependencies: ["Benchmarks", "Common", "Matcher", "TestSupport"]),
    .testTarget(name: "RingBufferTests", dependencies: ["RingBuffer"]),
    .testTarget(
      name: "JackInputTests", dependencies: ["JackInput", "RingBuffer", "JackTestSupport", "Matcher", "TestSupport"]),
    .testTarget(
      name: "MonitorKitTests",
      dependencies: ["MonitorKit", "Common", "Matcher", "Reports", "TestSupport", "JackInput", "JackTestSupport"]),
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
