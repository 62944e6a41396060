import Foundation
import Testing

@testable import Dashboard
@testable import Store

@Suite("A source's changes page")
struct SourceDiffPageControllerTests {
  static func render(held: Bool, _ difference: Store.CopyDifference?) -> String {
    PageRenderer(csrf: "t").html(
      "source-diff", model: SourceDiffPageController.Page(key: "ads", held: held, difference: difference))
  }

  @Test("Counts, names linked to Why?, what was cut; Accept only for a held copy; one copy: nothing to compare")
  func render() {
    let difference = Store.CopyDifference(
      source: "ads", from: "current", to: "held", before: 100, after: 40, addedCount: 1, removedCount: 61,
      added: ["new.website"], removed: ["old.website"], changedAt: nil)
    let held = Self.render(held: true, difference)
    #expect(held.contains("current copy 100 names → held copy 40 names: 1 added, 61 removed."))
    #expect(held.contains("<a href=\"/why?name=new.website\">new.website</a>"))
    #expect(held.contains("… and 60 more"))
    #expect(held.contains("action=\"/api/sources/ads/accept\""))
    #expect(!Self.render(held: false, difference).contains("/accept"))
    #expect(Self.render(held: false, nil).contains("nothing to compare yet"))
  }
}
