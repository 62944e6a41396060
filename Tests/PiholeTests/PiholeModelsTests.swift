import Foundation
import Testing

@testable import Pihole

@Suite("Reading Pi-hole replies")
struct PiholeModelsTests {
  @Test("A search reply with the duplicate type key, nulls and an absent key decodes")
  func tolerant() throws {
    let raw = """
      {"search":{"domains":[],"gravity":[{"domain":"||ads.website^","type":"block","address":"https://l.website/a.txt",\
      "comment":null,"enabled":true,"id":3,"type":"block","number":5}],"results":{"total":1}},"took":0.001}
      """
    let object = try JSONValue.object(Data(raw.utf8))
    let gravity = try #require((object["search"] as? [String: Any])?["gravity"] as? [[String: Any]])
    #expect(gravity.count == 1)
    #expect(JSONValue.string(gravity[0]["type"]) == "block")
    #expect(JSONValue.list(["address": "https://x", "comment": NSNull()])?.comment == nil)
    #expect(JSONValue.list(["comment": "no address"]) == nil)
    #expect(throws: PiholeError.self) { try JSONValue.object(Data("<html>".utf8)) }
  }

  @Test("processed.errors are read even from a success reply")
  func processed() throws {
    let object = try JSONValue.object(
      Data(
        #"{"lists":[],"processed":{"errors":[{"item":"https://a","error":"UNIQUE constraint failed: adlist.address, adlist.type"}],"success":[{"item":"https://b"}]},"took":0}"#
          .utf8))
    let processed = JSONValue.processed(object)
    #expect(processed.success == ["https://b"])
    #expect(
      processed.errors == [.init(item: "https://a", error: "UNIQUE constraint failed: adlist.address, adlist.type")])
  }

  @Test("A search blocks when a deny rule or block list matches and no allow rule does")
  func blocks() {
    let list = PiholeSearch.Match(address: "https://l", entry: "ads.website", type: "block")
    let allow = PiholeDomain(domain: "ads.website", type: "allow", kind: "exact", comment: nil, enabled: true, id: 1)
    #expect(PiholeSearch(domains: [], gravity: [list]).blocks)
    #expect(!PiholeSearch(domains: [allow], gravity: [list]).blocks)
    #expect(!PiholeSearch(domains: [], gravity: []).blocks)
  }

  @Test("Gravity log lines: escapes removed, CR and LF split, the stray JSON status dropped")
  func gravityLog() {
    let raw =
      "  [i] Target: https://a\r\u{1B}[K  [✓] Status: Retrieval successful\n\n  [i] Number of gravity domains: 5\n{\"status\":\"success\"}"
    #expect(
      PiholeReply.logLines(Data(raw.utf8)) == [
        "  [i] Target: https://a", "  [✓] Status: Retrieval successful", "  [i] Number of gravity domains: 5",
      ])
  }

  @Test("Text from a Pi-hole reaches no terminal with control characters: escapes, bells and CRs are dropped")
  func noControlCharacters() throws {
    let raw =
      #"{"lists":[{"address":"https://l.website/a.txt\u001b]0;pwned\u0007","comment":"tab\there\r\u009b2J","#
      + #""type":"block","enabled":true,"id":1,"number":2,"status":1}]}"#
    let list = try #require(
      (try JSONValue.object(Data(raw.utf8))["lists"] as? [[String: Any]])?.first.flatMap(JSONValue.list))
    #expect(list.address == "https://l.website/a.txt]0;pwned")
    #expect(list.comment == "tab here2J")
    let error = PiholeReply.failure(
      status: 400, body: Data(#"{"error":{"key":"bad\u001b[31m","message":"no\u0007pe","hint":"\u001b[2Jx"}}"#.utf8))
    #expect(error == .api(status: 400, key: "bad[31m", message: "nope", hint: "[2Jx"))
    #expect(PiholeReply.logLines(Data("  [i] ok\u{07}\u{1B}]0;title\u{07}\n".utf8)) == ["  [i] ok]0;title"])
  }

  @Test("Path segments and query values are percent-encoded")
  func encoding() {
    #expect(PiholeClient.encode("https://a.website/list.txt?x=1") == "https%3A%2F%2Fa.website%2Flist.txt%3Fx%3D1")
  }
}
