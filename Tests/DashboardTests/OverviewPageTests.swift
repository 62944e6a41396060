import Foundation
import Testing

@testable import Dashboard

@Suite("Overview page")
struct OverviewPageTests {
  static func view(warnings: [String] = [], names: Int? = 415_768) -> OverviewView {
    OverviewView(
      profile: "family", profiles: ["family"], names: names, compiledAt: Date(), sources: [], lastTest: nil,
      warnings: warnings, update: UpdateStatus(), test: TestStatus(), subscriptions: ["/lists/family.hosts"])
  }

  @Test("Profile, grouped name count, warnings, subscriptions; a first visit points to the next step")
  func render() {
    let html = OverviewPage.render(Self.view(warnings: ["<b>stale</b>"]), csrf: "c").output
    #expect(html.contains("<p class=\"big\" id=\"profile-name\">family</p>"))
    #expect(html.contains("<strong id=\"names-blocked\">415,768</strong>"))
    #expect(html.contains("<li class=\"warning\">&lt;b&gt;stale&lt;/b&gt;</li>"))
    #expect(html.contains("href=\"/lists/family.hosts\""))
    #expect(html.contains("No test yet"))
    #expect(html.contains("No sources yet"))
    let empty = OverviewPage.render(Self.view(names: nil), csrf: "c").output
    #expect(empty.contains("<strong id=\"names-blocked\">0</strong>") && empty.contains("Nothing to report."))
  }
}
