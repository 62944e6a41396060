import Blocklists
import Foundation
import Testing

@testable import Store

@Suite("Profile records")
struct ProfileTests {
  @Test("Usable profile names: letters, digits, -, _ and ., 1 to 64 characters, not starting with -")
  func validNames() throws {
    for name in ["default", "Work_2", "a.b-c", "x", String(repeating: "n", count: 64), "café"] {
      #expect(throws: Never.self, "\(name)") { try Profile.validate(name: name) }
    }
  }

  @Test("Unusable profile names are refused, naming the value")
  func invalidNames() {
    for name in ["", " ", "two words", "-leading", "slash/name", "semi;", "tab\t", String(repeating: "n", count: 65)] {
      let error = #expect(throws: StoreError.self, "\(name)") { try Profile.validate(name: name) }
      guard case .invalid(let value, let reason) = error else {
        Issue.record("expected invalid for “\(name)”, got \(String(describing: error))")
        continue
      }
      #expect(value == name)
      #expect(reason.contains("1 to 64"))
    }
  }

  @Test("A new profile is inactive unless said otherwise")
  func defaults() {
    let profile = Profile(id: 1, name: "p")
    #expect(profile.id == 1)
    #expect(!profile.isActive)
    #expect(profile.summary == nil)
    #expect(profile.preset == nil)
    #expect(Profile(id: 1, name: "q", isActive: true).isActive)
  }

  @Test(
    "A rule's text is how it is written for its action",
    arguments: [
      (ProfileRule.Action.allow, RuleKind.exact, "=a.website"),
      (.allow, .subdomains, "a.website"),
      (.allow, .wildcard, "*.a.website"),
      (.deny, .exact, "a.website"),
    ])
  func ruleText(action: ProfileRule.Action, kind: RuleKind, text: String) {
    #expect(ProfileRule(id: 1, profileID: 1, action: action, kind: kind, pattern: "a.website").text == text)
  }

  @Test("A regex rule's text is its pattern between slashes")
  func regexText() {
    #expect(ProfileRule(id: 1, profileID: 1, action: .allow, kind: .regex, pattern: "^ads\\.").text == "/^ads\\./")
  }

  @Test("A rule's text parses back to the same rule", arguments: ProfileRule.Action.allCases)
  func textRoundTrip(action: ProfileRule.Action) throws {
    let written =
      action == .allow ? ["a.website", "=b.website", "*.c.website", "/^d\\./"] : ["a.website", "=b.website"]
    for text in written {
      let parsed = try Store.parseRule(text, action: action)
      let rule = ProfileRule(id: 1, profileID: 1, action: action, kind: parsed.kind, pattern: parsed.pattern)
      let reparsed = try Store.parseRule(rule.text, action: action)
      #expect(reparsed.kind == parsed.kind, "\(text)")
      #expect(reparsed.pattern == parsed.pattern, "\(text)")
    }
  }

  @Test("Actions are allow then deny")
  func actions() {
    #expect(ProfileRule.Action.allCases.map(\.rawValue) == ["allow", "deny"])
  }
}
