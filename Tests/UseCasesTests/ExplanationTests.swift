import Foundation
import Testing

@testable import UseCases

@Suite("An explanation, as why prints it")
struct ExplanationTests {
  static func explanation(_ verdict: Explanation.Verdict, _ outputs: [Explanation.Output]) -> Explanation {
    Explanation(
      query: "a.ads.website", name: "a.ads.website", unicode: nil, invalidReason: nil, verdict: verdict,
      summary: "", listings: [], rules: [], publicSuffix: false, outputs: outputs)
  }

  @Test("Formats grouped by how they write the name, in order; blocked when any format blocks it")
  func groups() throws {
    let covered = Self.explanation(
      .coveredByParent,
      [
        .init(format: "hosts", written: .notWritten, parent: nil, reason: nil),
        .init(format: "domains", written: .notWritten, parent: nil, reason: nil),
        .init(format: "adblock", written: .coveredByParent, parent: "ads.website", reason: nil),
        .init(format: "dnsmasq", written: .coveredByParent, parent: "ads.website", reason: nil),
        .init(format: "rpz", written: .excepted, parent: nil, reason: "your rule =a.ads.website"),
      ])
    #expect(covered.isBlocked)
    let groups = covered.outputGroups.map { "\($0.how): \($0.formats.joined(separator: ","))" }
    #expect(
      groups == [
        "not written: hosts,domains", "covered by ads.website: adblock,dnsmasq",
        "let through (your rule =a.ads.website): rpz",
      ])
    #expect(!Self.explanation(.allowed, []).isBlocked)
    let data = try JSONEncoder().encode(covered)
    #expect(try JSONDecoder().decode(Explanation.self, from: data) == covered)
  }
}
