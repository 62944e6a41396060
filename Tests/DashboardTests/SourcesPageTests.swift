import Catalog
import Foundation
import Store
import Testing
import Updates

@testable import Dashboard

@Suite("Sources page")
struct SourcesPageTests {
  @Test("One progress row per source with its phase; buttons follow the state; every form carries the CSRF token")
  func render() {
    var update = UpdateStatus(state: .running)
    update.sources = [UpdateStatus.row(key: "ads", .downloading(bytes: 1_000_000, total: 2_000_000))]
    let model = SourcesPage.Model(
      profile: "default", profiles: ["default", "kids"], sources: [], rules: [], update: update, catalog: .builtIn)
    let html = SourcesPage.render(model, csrf: "tok").output
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

  @Test("Each progress row has its own Cancel, usable while the source runs, hidden until the script shows it")
  func sourceCancel() {
    var update = UpdateStatus(state: .running)
    update.sources = [
      UpdateStatus.row(key: "ads", .downloading(bytes: 1, total: nil)),
      UpdateStatus.row(key: "done", .done(.unchanged(.notModified))),
    ]
    func cancelButton(_ key: String, _ update: UpdateStatus) -> String? {
      let html = SourcesPage.render(
        SourcesPage.Model(profile: "p", profiles: ["p"], sources: [], rules: [], update: update, catalog: .builtIn),
        csrf: "t"
      ).output
      return html.components(separatedBy: "<button type=\"button\" class=\"source-cancel").dropFirst()
        .first { $0.contains("data-key=\"\(key)\"") }.map { $0.components(separatedBy: ">").first ?? "" }
    }
    let running = cancelButton("ads", update)
    #expect(running?.contains("aria-label=\"Cancel ads\" hidden") == true, "\(running ?? "none")")
    #expect(running?.contains("disabled") == false)
    #expect(cancelButton("done", update)?.contains("disabled") == true, "an ended source cannot be cancelled")
    update.state = .finished
    #expect(cancelButton("ads", update)?.contains("disabled") == true, "nor once the run ended")
  }
}
