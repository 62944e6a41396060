import Blocklists
import Foundation
import Store
import Testing

@testable import Dashboard

@Suite("API models")
struct ModelsTests {
  @Test("A flag reads JSON booleans and HTML checkbox values")
  func flag() throws {
    struct Body: Decodable { var on: Flag }
    for (json, value) in [
      (#"{"on":true}"#, true), (#"{"on":false}"#, false), (#"{"on":"on"}"#, true), (#"{"on":"true"}"#, true),
      (#"{"on":"1"}"#, true), (#"{"on":"off"}"#, false), (#"{"on":""}"#, false),
    ] {
      #expect(try JSONDecoder().decode(Body.self, from: Data(json.utf8)).on.value == value, "\(json)")
    }
    #expect(String(decoding: try JSONEncoder().encode(Flag(true)), as: UTF8.self) == "true")
  }

  @Test("A run's score comes from its counts")
  func runView() {
    let record = TestRunRecord(
      startedAt: Date(), probe: "dns", target: "t", milliseconds: 1, blocked: 3, reachable: 1, inconclusive: 5,
      report: Data())
    let view = RunView(record)
    #expect(view.percent == 75 && view.rating == "strong")
  }
}
