import AsyncHTTPClient
import Foundation
import NIOHTTP1
import TestSupport
import Testing
import UseCases

@testable import Dashboard

@Suite("/metrics: Prometheus' text format, scraped by a real Prometheus")
struct MetricsControllerTests {
  @Test("Every series has HELP and TYPE lines; names follow Prometheus' conventions; absent numbers are left out")
  func text() throws {
    var report = MetricsReport()
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    report.lists = [
      .init(
        key: "ads", names: 12, lastSuccess: now.addingTimeInterval(-3600), lastUpdateSucceeded: false,
        blockedQueries: 7, uniqueBlocked: 3),
      .init(
        key: "new", names: nil, lastSuccess: nil, lastUpdateSucceeded: nil, blockedQueries: nil, uniqueBlocked: nil),
    ]
    report.targets = [
      .init(
        path: "/etc/hosts", target: "hosts", profile: "default", names: 12, appliedAt: now, verifiedAt: nil,
        serial: 2_026_112_801, applySeconds: 0.25)
    ]
    report.testScore = (87.5, now)
    report.rules = (allow: 3, deny: 1, ending: 2)
    let text = MetricsController.text(report, now: now, version: "9.9")
    for line in [
      "# TYPE sanehosts_list_blocked_queries_total counter", #"sanehosts_list_blocked_queries_total{list="ads"} 7"#,
      "# TYPE sanehosts_list_names gauge", #"sanehosts_list_names{list="ads"} 12.0"#,
      #"sanehosts_list_age_seconds{list="ads"} 3600.0"#, #"sanehosts_list_last_update_success{list="ads"} 0.0"#,
      #"sanehosts_list_unique_blocked_names{list="ads"} 3.0"#,
      #"sanehosts_target_serial{target="hosts",path="/etc/hosts",profile="default"} 2026112801.0"#,
      #"sanehosts_apply_duration_seconds{target="hosts",path="/etc/hosts",profile="default"} 0.25"#,
      "sanehosts_blocker_test_score_percent 87.5", #"sanehosts_build_info{version="9.9"} 1.0"#,
      #"sanehosts_rules{action="allow"} 3.0"#, "sanehosts_rules_ending 2.0",
    ] {
      #expect(text.contains(line + "\n"), "\(line)\n\(text)")
    }
    #expect(!text.contains(#"list="new""#), "a list never downloaded has no numbers yet")
    #expect(!text.contains("sanehosts_query_logs_readable"), "no log configured: no such series")
    let names = Set(
      text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { $0.prefix { $0 != "{" && $0 != " " } })
    for name in names {
      #expect(name.hasPrefix("sanehosts_") && name.allSatisfy { $0.isLowercase || $0 == "_" || $0.isNumber })
      #expect(text.contains("# HELP \(name) ") && text.contains("# TYPE \(name) "), "\(name)")
    }
  }

  @Test("Debian's real Prometheus scrapes /metrics and its query API returns the per-list series")
  func scrapedByPrometheus() async throws {
    try await DashboardHarness.with(queryLogs: ["dnsmasq.log"]) { harness in
      _ = try await WhySearchTests.store(harness.directory)
      try Data(
        (TrafficControllerTests.line("query[A] ads.website from 10.0.0.2")
          + TrafficControllerTests.line("config ads.website is NXDOMAIN")
          + TrafficControllerTests.line("query[AAAA] ads.website from 10.0.0.3")
          + TrafficControllerTests.line("query[A] clean.website from 10.0.0.2")).utf8
      ).write(to: harness.directory.file("dnsmasq.log"))
      try await harness.live { client in
        let own = try await client.request("/metrics")
        #expect(
          own.status == 200 && own.headers.first(name: "Content-Type")?.hasPrefix("text/plain; version=0.0.4") == true)
        #expect(own.body.contains(#"sanehosts_list_blocked_queries_total{list="list"} 2"#), "\(own.body)")
        try await PrometheusServer.with(scraping: "127.0.0.1:\(client.port)", directory: harness.directory.url) {
          prometheus in
          let api = LiveClient(port: Int(prometheus.port), csrf: "")
          do {
            try await Self.check(prometheus, through: api)
          } catch {
            try? await api.http.shutdown()
            throw error
          }
          try await api.http.shutdown()
        }
      }
    }
  }

  /// Polls the real Prometheus until it has scraped the per-list series, then reads them back.
  static func check(_ prometheus: PrometheusServer, through api: LiveClient) async throws {
    // Bounded polling of a real server: up, scraped (every second), queried.
    var series: [[String: Any]] = []
    let deadline = ContinuousClock.now + .seconds(60)
    while series.isEmpty && ContinuousClock.now < deadline && !prometheus.hasExited {
      try await Task.sleep(for: .milliseconds(250))
      guard let reply = try? await api.request("/api/v1/query?query=sanehosts_list_blocked_queries_total"),
        let data = reply.json?["data"] as? [String: Any]
      else { continue }
      series = data["result"] as? [[String: Any]] ?? []
    }
    let first = try #require(series.first, "no series scraped: \(prometheus.log())")
    let labels = try #require(first["metric"] as? [String: String])
    #expect(labels["list"] == "list" && labels["job"] == "sanehosts")
    #expect((first["value"] as? [Any])?.last as? String == "2", "\(first)")
    let names = try await api.request("/api/v1/query?query=sanehosts_list_names%7Blist%3D%22list%22%7D")
    let result = ((names.json?["data"] as? [String: Any])?["result"] as? [[String: Any]]) ?? []
    #expect((result.first?["value"] as? [Any])?.last as? String == "2", "\(names.body)")
    let up = try await api.request("/api/v1/query?query=up")
    #expect(up.body.contains(#""value":["#) && up.body.contains(#","1"]"#), "the target is up: \(up.body)")
  }
}
