import Foundation
import TestSupport
import Testing
import Traffic

@testable import Dashboard

@Suite("The Traffic page")
struct TrafficPageControllerTests {
  static let report: HitReport = {
    var report = HitReport(profile: "default", server: "dnsmasq", sources: ["/var/log/dnsmasq.log"])
    report.queries = 10
    report.distinctNames = 4
    report.blocked = 6
    report.lists = [
      .init(list: "first", size: 2, queries: 6, names: 2, onlyThis: 4, share: 1),
      .init(list: "third", size: 1, queries: 0, names: 0, onlyThis: 0, share: 0),
    ]
    report.top = [.init(name: "ads.website", queries: 4, lists: ["first"])]
    report.answeredButBlocked = 2
    report.answeredNames = [.init(name: "x.website", queries: 2, lists: ["first"])]
    return report
  }()

  static func render(_ page: TrafficPageController.Page) -> String {
    PageRenderer(csrf: "token").html("traffic", model: page)
  }

  @Test("Without a log it says how to give one; with one: bars, dead weight, names with Allow, the feed")
  func render() {
    let none = Self.render(.init(report: nil, hasLogs: false, since: "24h", error: nil))
    #expect(none.contains("sanehosts serve --log dnsmasq:/var/log/dnsmasq.log"))
    #expect(!none.contains("data-feed"))
    let page = Self.render(.init(report: Self.report, hasLogs: true, since: "24h", error: nil))
    #expect(page.contains("<tr data-list=\"first\">"))
    #expect(page.contains("<meter min=\"0\" max=\"100\" value=\"100.0\""))
    #expect(page.contains("Dead weight (no hit in this window): third (1 name)"))
    #expect(page.contains("name=\"pattern\" value=\"=ads.website\""))
    #expect(page.contains("name=\"csrf\" value=\"token\""))
    #expect(page.contains("is the server running what was applied?"))
    #expect(page.contains("data-feed=\"/traffic/feed\""))
    #expect(page.contains("<option value=\"24h\" selected>"))
  }

  @Test("A feed item is the same markup as the report's names: the name, when, which lists, and Allow")
  func feedItem() {
    var item = FeedItem(time: Date(timeIntervalSince1970: 0), name: "<b>ads.website", type: "A", lists: ["first"])
    let html = PageRenderer(csrf: "t").html("traffic-hit", model: TrafficPageController.NameRow(item))
    #expect(html.hasPrefix("<li><code>&lt;b&gt;ads.website</code>"))
    #expect(html.contains(" A · first"))
    #expect(html.contains("name=\"pattern\" value=\"=&lt;b&gt;ads.website\""))
    item.notApplied = true
    item.lists = []
    let pending = PageRenderer(csrf: "t").html("traffic-hit", model: TrafficPageController.NameRow(item))
    #expect(pending.contains("allowed, not applied yet") && !pending.contains("<form"))
    #expect(pending.contains("blocked by the server, in no list of the profile"))
  }

  @Test("/traffic/feed sends each blocked query as the page's list item, rendered, with its Allow form")
  func feed() async throws {
    try await DashboardHarness.with(queryLogs: ["dnsmasq.log"]) { harness in
      _ = try await WhySearchTests.store(harness.directory)
      let log = harness.directory.file("dnsmasq.log")
      try Data().write(to: log)
      try await harness.live { client in
        try await withThrowingTaskGroup(of: Void.self) { group in
          group.addTask {
            let text = try await client.text("/traffic/feed", until: "</li>", seconds: 20)
            #expect(text.contains("event: hit\ndata: <li><code>tracker.website</code>"), "\(text)")
            #expect(text.contains("name=\"pattern\" value=\"=tracker.website\""))
          }
          // The feed starts at the log's end once the stream is open: a line is appended every 300 ms.
          group.addTask {
            while !Task.isCancelled {
              try await Task.sleep(for: .milliseconds(300))
              let handle = try FileHandle(forWritingTo: log)
              try handle.seekToEnd()
              try handle.write(
                contentsOf: Data(TrafficControllerTests.line("query[A] tracker.website from 10.0.0.2").utf8))
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
