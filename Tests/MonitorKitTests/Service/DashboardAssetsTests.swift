import Foundation
import TestSupport
import Testing

@testable import MonitorKit

@Suite("DashboardAssets")
struct DashboardAssetsTests {
  static let staticFolder = Fixtures.packageRoot.appendingPathComponent(
    "Sources/MonitorKit/Service/Dashboard/Static", isDirectory: true)

  static func file(_ name: String) throws -> [UInt8] {
    Array(try Data(contentsOf: staticFolder.appendingPathComponent(name)))
  }

  @Test("The compiled-in files are the files in Static/, byte for byte (run scripts/dashboard-assets.py after an edit)")
  func compiledInFilesEqualTheFolder() throws {
    let names = try FileManager.default.contentsOfDirectory(atPath: Self.staticFolder.path).sorted()
    #expect(names == DashboardAssets.files.keys.sorted(), "run python3 scripts/dashboard-assets.py")
    for name in names {
      let served = DashboardAssets.asset(path: "/dashboard/" + name)
      #expect(served?.body == (try Self.file(name)), "\(name) differs: run python3 scripts/dashboard-assets.py")
    }
  }

  @Test(
    "Each file is served with its content type",
    arguments: [
      ("/", "index.html", "text/html; charset=utf-8"),
      ("/index.html", "index.html", "text/html; charset=utf-8"),
      ("/dashboard/", "index.html", "text/html; charset=utf-8"),
      ("/dashboard/dashboard.css", "dashboard.css", "text/css; charset=utf-8"),
      ("/dashboard.css", "dashboard.css", "text/css; charset=utf-8"),
      ("/dashboard/dashboard.js", "dashboard.js", "text/javascript; charset=utf-8"),
      ("/dashboard.js", "dashboard.js", "text/javascript; charset=utf-8"),
      ("/dashboard/icon.svg", "icon.svg", "image/svg+xml"),
    ])
  func servedWithContentType(path: String, name: String, contentType: String) throws {
    let asset = try #require(DashboardAssets.asset(path: path))
    #expect(asset.contentType == contentType)
    #expect(asset.body == (try Self.file(name)))
  }

  @Test(
    "A path that is not one of the dashboard's files gets nothing",
    arguments: [
      "", "//", "/dashboard", "/dashboard/../Package.swift", "/dashboard/dashboard.js/", "/DASHBOARD.JS",
      "/api/v1/channels", "/dashboard/dashboard.js?v=1", "/dashboard/%64ashboard.js", "/dashboard//dashboard.js",
    ])
  func unknownPathGetsNothing(path: String) {
    #expect(DashboardAssets.asset(path: path) == nil)
  }

  @Test("The page loads only files the dashboard serves: nothing from another host (it works offline)")
  func pageLoadsOnlyItsOwnFiles() throws {
    let page = String(decoding: try Self.file("index.html"), as: UTF8.self)
    let references = try Regex(#"(?:src|href)="([^"]*)""#)
    var links: [String] = []
    for match in page.matches(of: references) {
      links.append(String(match.output[1].substring ?? ""))
    }
    let assets = links.filter { $0.hasPrefix("dashboard/") }
    #expect(assets.sorted() == ["dashboard/dashboard.css", "dashboard/dashboard.js", "dashboard/icon.svg"])
    for link in assets {
      #expect(DashboardAssets.asset(path: "/" + link) != nil, "\(link) is not served")
    }
    for name in DashboardAssets.files.keys {
      let text = String(decoding: try Self.file(name), as: UTF8.self)
      for scheme in ["http://", "https://", "url(//", "src=\"//", "href=\"//"] {
        #expect(!text.contains(scheme) || name == "icon.svg", "\(name) refers to another host (\(scheme))")
      }
    }
  }

  @Test("The script never puts the API's data into the page as markup")
  func scriptWritesNoMarkup() throws {
    let script = String(decoding: try Self.file("dashboard.js"), as: UTF8.self)
    for sink in ["innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function"] {
      #expect(!script.contains(sink), "dashboard.js uses \(sink)")
    }
  }
}

@Suite("APIRouter serves the dashboard")
struct APIRouterDashboardTests {
  struct NoReadings: MonitorReadings {
    var statuses: [ChannelStatus] { [] }
    var overview: MonitorOverview {
      MonitorOverview(
        startedAt: Date(timeIntervalSince1970: 0), catalogPath: "", catalogItems: 0, catalogHours: 0,
        databasePath: "", storeBacklog: 0, storeFailing: false, jack: nil)
    }
    var playLogWriteLatency: LatencyHistogram.Snapshot { LatencyHistogram.Snapshot(counts: [], sumSeconds: 0) }
  }

  static let router = APIRouter(
    readings: NoReadings(), configuration: MonitorConfiguration(catalogPath: "", databasePath: "", channels: []),
    token: nil, log: nil)

  @Test(
    "GET / answers the page, and the page's files with their content types",
    arguments: ["/", "/dashboard/dashboard.js"])
  func servesTheDashboard(path: String) throws {
    let response = Self.router.respond(to: HTTPRequest(method: "GET", path: path))
    let asset = try #require(DashboardAssets.asset(path: path))
    #expect(response.status == 200)
    #expect(response.contentType == asset.contentType)
    #expect(response.bodyText == String(decoding: asset.body, as: UTF8.self))
  }

  @Test("A path that is neither the API nor a dashboard file is still 404")
  func unknownPathIs404() {
    let response = Self.router.respond(to: HTTPRequest(method: "GET", path: "/dashboard/missing.js"))
    #expect(response.status == 404)
    #expect(response.bodyText.contains("the dashboard is /"))
  }
}
