import Blocklists
import Foundation
import Testing

@testable import Traffic

@Suite("Which lists block a queried name")
struct AttributionTests {
  @Test("The name, its parents where the server covers subdomains, an allow rule's exception, a deny rule; sizes")
  func lists() async throws {
    let list = try await HitCounterTests.compiled(allow: ["=ok.ads.website"], deny: ["extra.website"])
    var covering = Attribution(compiled: list, coversSubdomains: true)
    var exact = Attribution(compiled: list, coversSubdomains: false)
    #expect(covering.lists == ["first", "second", "deny rules"])
    #expect(covering.sizes == [2, 3, 1])
    #expect(covering.lists(for: "tracker.website") == [0, 1])
    #expect(covering.lists(for: "Deep.Tracker.Website.") == [0, 1], "case and the final dot as logs write them")
    #expect(exact.lists(for: "deep.tracker.website").isEmpty)
    #expect(covering.lists(for: "ok.ads.website").isEmpty, "the allow rule's exception")
    #expect(covering.lists(for: "extra.website") == [2])
    #expect(covering.lists(for: "not a name!").isEmpty)
    #expect(
      covering.lists(for: "tracker.website") == [0, 1], "asked again, the same answer: nothing is kept between names")
  }
}
