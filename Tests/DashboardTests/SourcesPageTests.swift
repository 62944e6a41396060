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
}
