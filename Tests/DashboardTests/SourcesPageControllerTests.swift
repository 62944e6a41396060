import Catalog
import Foundation
import Loading
import Store
import Testing
import Updates

@testable import Dashboard

@Suite("Sources page")
struct SourcesPageControllerTests {
  static func render(_ update: UpdateStatus, profiles: [String] = ["p"], csrf: String = "t") -> String {
    let page = SourcesPageController.Page(
      profile: profiles[0], profiles: profiles, sources: [], rules: [], update: update, catalog: .builtIn)
    return PageRenderer(csrf: csrf).html("sources", model: page)
  }

  @Test("One progress row per source with its phase; buttons follow the state; every form carries the CSRF token")
  func render() {
    var update = UpdateStatus(state: .running)
    update.sources = [UpdateStatus.row(key: "ads", .downloading(bytes: 1_000_000, total: 2_000_000))]
    let html = Self.render(update, profiles: ["default", "kids"], csrf: "tok")
    #expect(html.contains("<div class=\"source-progress phase-row-downloading\" data-source=\"ads\">"))
    #expect(html.contains("<span class=\"phase phase-downloading\">downloading 1.0 MB (50%)</span>"))
    #expect(html.contains("<button id=\"update-start\" type=\"submit\" disabled>"))
    #expect(html.contains("<button id=\"update-cancel\" type=\"submit\" class=\"secondary\">"))
    let forms = html.components(separatedBy: "<form ").count - 1
    let tokens = html.components(separatedBy: "name=\"csrf\" value=\"tok\"").count - 1
    #expect(forms > 0 && forms == tokens)
    #expect(html.contains("data-add=\"stevenblack-unified\""))
    #expect(html.contains("action=\"/api/profiles/kids/use\""))
  }

  @Test("Each progress row has its own Cancel (a form, so it works without the script), only while the source runs")
  func sourceCancel() {
    var update = UpdateStatus(state: .running)
    update.sources = [
      UpdateStatus.row(key: "ads", .downloading(bytes: 1, total: nil)),
      UpdateStatus.row(key: "done", .done(.unchanged(.notModified))),
    ]
    func cancelButton(_ key: String, _ update: UpdateStatus) -> String? {
      Self.render(update).components(separatedBy: "action=\"/api/update/sources/").dropFirst()
        .first { $0.hasPrefix("\(key)/cancel") }
        .flatMap { $0.components(separatedBy: "<button ").dropFirst().first }
        .map { $0.components(separatedBy: ">").first ?? "" }
    }
    let running = cancelButton("ads", update)
    #expect(running?.contains("aria-label=\"Cancel ads\"") == true, "\(running ?? "none")")
    #expect(running?.contains("disabled") == false && running?.contains("hidden") == false)
    #expect(cancelButton("done", update)?.contains("hidden disabled") == true, "an ended source cannot be cancelled")
    update.state = .finished
    #expect(cancelButton("ads", update)?.contains("hidden disabled") == true, "nor once the run ended")
  }

  @Test("/sources/events streams the update card, rendered, as it changes")
  func events() async throws {
    try await DashboardHarness.with { harness in
      try await harness.live { client async throws in
        var status = UpdateStatus(state: .running, profile: "p")
        status.sources = [UpdateStatus.row(key: "ads", .downloading(bytes: 1, total: nil))]
        harness.dashboard.updates.relay.update(status)
        let text = try await client.text("/sources/events", until: "</section>")
        #expect(text.contains("event: fragment\ndata: <section class=\"card\""))
        #expect(text.contains("data-state=\"running\""))
        #expect(text.contains("data-source=\"ads\""))
      }
    }
  }
}
