import Foundation
import Testing
import Traffic

@testable import Dashboard

@Suite("The Traffic page")
struct TrafficPageTests {
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

  @Test("Without a log it says how to give one; with one: bars, dead weight, names with Allow, the feed")
  func render() {
    let none = TrafficPage.render(report: nil, logs: [], since: "24h", error: nil, csrf: "token").output
    #expect(none.contains("sanehosts serve --log dnsmasq:/var/log/dnsmasq.log"))
    #expect(!none.contains("data-feed"))
    let logs = [LogSource(kind: .dnsmasq, path: "/var/log/dnsmasq.log")]
    let page = TrafficPage.render(report: Self.report, logs: logs, since: "24h", error: nil, csrf: "token").output
    #expect(page.contains("<tr data-list=\"first\">"))
    #expect(page.contains("<meter min=\"0\" max=\"100\" value=\"100.0\""))
    #expect(page.contains("Dead weight (no hit in this window): third (1 name)"))
    #expect(page.contains("name=\"pattern\" value=\"=ads.website\""))
    #expect(page.contains("name=\"csrf\" value=\"token\""))
    #expect(page.contains("is the server running what was applied?"))
    #expect(page.contains("data-feed=\"/api/traffic/events\""))
    #expect(page.contains("<option value=\"24h\" selected>"))
  }
}
