import Foundation
import TestSupport
import Testing

@testable import Dashboard

@Suite("The traffic API: hits from the configured query log, and the live feed")
struct TrafficControllerTests {
  static func line(_ text: String) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.dateFormat = "MMM dd HH:mm:ss"
    return "\(formatter.string(from: Date())) dnsmasq[7]: \(text)\n"
  }

  @Test("Its routes, mounted at /api/traffic")
  func routes() async throws {
    try await DashboardHarness.with { harness in
      let dashboard = harness.dashboard
      let controller = TrafficController(traffic: dashboard.trafficReader, events: dashboard.events)
      let routes = try mountedRoutes(controller.routes, at: "/api/traffic")
      #expect(routes == ["GET /api/traffic", "GET /api/traffic/events"])
    }
  }

  @Test("GET /api/traffic and /traffic count the log; the feed sends each blocked name as it is logged")
  func hitsAndFeed() async throws {
    try await DashboardHarness.with(queryLogs: ["dnsmasq.log"]) { harness in
      _ = try await WhySearchTests.store(harness.directory)
      let log = harness.directory.file("dnsmasq.log")
      try Data(
        (Self.line("query[A] ads.website from 10.0.0.2") + Self.line("config ads.website is NXDOMAIN")
          + Self.line("query[A] clean.website from 10.0.0.2")).utf8
      ).write(to: log)
      try await harness.live { client in
        let reply = try await client.request("/api/traffic")
        let report = try #require(
          try JSONSerialization.jsonObject(with: Data(reply.body.utf8)) as? [String: Any], "\(reply.body)")
        #expect(report["queries"] as? Int == 2 && report["blocked"] as? Int == 1, "\(report)")
        let page = try await client.request("/traffic")
        #expect(page.status == 200 && page.body.contains("<tr data-list=\"list\">"), "\(page.body)")
        let bad = try await client.request("/api/traffic?since=yesterday")
        #expect(bad.status == 400 && bad.body.contains("yesterday"), "\(bad.body)")
        try await withThrowingTaskGroup(of: Void.self) { group in
          group.addTask {
            let hits = try await client.events("/api/traffic/events", seconds: 20) { $0["name"] != nil }
            #expect(hits.last?["name"] as? String == "tracker.website")
            #expect(hits.last?["lists"] as? [String] == ["list"])
          }
          // The feed starts at the log's end, once the stream is open and the profile loaded: a line is
          // appended every 300 ms until the feed has shown one (on a slow machine the first may come early).
          group.addTask {
            while !Task.isCancelled {
              try await Task.sleep(for: .milliseconds(300))
              let handle = try FileHandle(forWritingTo: log)
              try handle.seekToEnd()
              try handle.write(contentsOf: Data(Self.line("query[AAAA] tracker.website from 10.0.0.2").utf8))
              try handle.close()
            }
          }
          try await group.next()
          group.cancelAll()
        }
      }
    }
  }
}
