import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import Dashboard

@Suite("Overview page")
struct OverviewPageControllerTests {
  static func view(warnings: [String] = [], names: Int? = 415_768) -> OverviewView {
    OverviewView(
      profile: "family", profiles: ["family"], names: names, compiledAt: Date(), sources: [], lastTest: nil,
      warnings: warnings, update: UpdateStatus(), test: TestStatus(), subscriptions: ["/lists/family.hosts"])
  }

  static func render(_ view: OverviewView) -> String {
    PageRenderer(csrf: "c").html("overview", model: OverviewPageController.Page(view))
  }

  @Test("Profile, grouped name count, warnings, subscriptions; a first visit points to the next step")
  func render() {
    let html = Self.render(Self.view(warnings: ["<b>stale</b>"]))
    #expect(html.contains("<p class=\"big\" id=\"profile-name\">family</p>"))
    #expect(html.contains("<strong id=\"names-blocked\">415,768</strong>"))
    #expect(html.contains("<li class=\"warning\">&lt;b&gt;stale&lt;/b&gt;</li>"))
    #expect(html.contains("href=\"/lists/family.hosts\""))
    #expect(html.contains("No test yet"))
    #expect(html.contains("No sources yet"))
    let empty = Self.render(Self.view(names: nil))
    #expect(empty.contains("<strong id=\"names-blocked\">0</strong>") && empty.contains("Nothing to report."))
  }

  @Test("GET / is the overview in the layout, its navigation entry marked")
  func route() async throws {
    try await DashboardHarness.with { harness in
      try await harness.routes { client async throws in
        let page = try await client.get("/")
        #expect(page.status == .ok)
        #expect(page.text.contains("<a href=\"/\" aria-current=\"page\">Overview</a>"))
        #expect(page.text.contains("<title>Overview · SaneHosts</title>"))
      }
    }
  }
}
