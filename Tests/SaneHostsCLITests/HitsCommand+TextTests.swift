import Foundation
import Testing
import Traffic

@testable import SaneHostsCLI

@Suite("hits: the text, CSV and feed lines")
struct HitsCommandTextTests {
  @Test("CSV quotes what needs it; a feed line names the lists or the server's own block; no query says so")
  func forms() {
    var report = HitReport(profile: "p", server: "dnsmasq", sources: ["a.log"])
    report.lists = [.init(list: "my, \"list\"", size: 3, queries: 2, names: 1, onlyThis: 2, share: 1)]
    #expect(
      HitsCommand.csv(report)
        == "list,names,blocked_queries,names_hit,only_this,share\n\"my, \"\"list\"\"\",3,2,1,2,1.0000\n")
    let time = Date(timeIntervalSince1970: 1_795_757_440)
    let line = HitsCommand.feedLine(FeedItem(time: time, name: "ads.website", type: "A", lists: ["a", "b"]))
    #expect(line.hasSuffix("  ads.website  A  a, b\n"))
    let server = HitsCommand.feedLine(FeedItem(time: nil, name: "x.website", type: nil, lists: []))
    #expect(server == "--:--:--  x.website  blocked by the server, in no list of the profile\n")
    #expect(HitsCommand.text(report).contains("No query in the logs."))
  }
}
