import Foundation
import Testing

@testable import Dashboard

@Suite("API request bodies")
struct APIRequestTests {
  @Test("A form's fields decode as a JSON body's do")
  func decoding() throws {
    let apply = try JSONDecoder().decode(APIRequest.Apply.self, from: Data(#"{"target":"hosts","force":"on"}"#.utf8))
    #expect(apply.target == "hosts" && apply.force?.value == true)
    let rule = try JSONDecoder().decode(
      APIRequest.Rule.self, from: Data(#"{"kind":"allow","pattern":"=a.website"}"#.utf8))
    #expect(rule.back == nil && rule.pattern == "=a.website")
    let source = try JSONDecoder().decode(APIRequest.AddSource.self, from: Data(#"{"catalog":"x"}"#.utf8))
    #expect(source.catalog == "x" && source.url == nil)
  }
}
