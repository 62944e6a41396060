import Foundation
import NIOHTTP1
import TestSupport
import Testing

@Suite("Pi-hole double: lists and domains")
struct PiholeDoubleListsTests {
  static let list = "https://example.com/hosts.txt"

  @Test func postingAListNeedsTheTypeParameter() async throws {
    try await PiholeDouble.with(.init(password: nil)) { double in
      let reply = try await PiholeHTTP.send(double, .POST, "/api/lists", body: #"{"address":"\#(Self.list)"}"#)
      #expect(reply.status == 400)
      #expect(
        reply.object("error")["message"] as? String
          == "Invalid request: Specify type parameter (should be either \"allow\" or \"block\")")
      #expect(double.lists.isEmpty)
    }
  }

  @Test func postingAListAnswers201AndADuplicateOnlyFailsInProcessed() async throws {
    try await PiholeDouble.with(.init(password: nil)) { double in
      let body = #"{"address":"\#(Self.list)","comment":"first"}"#
      let first = try await PiholeHTTP.send(double, .POST, "/api/lists?type=block", body: body)
      #expect(first.status == 201)
      #expect(first.headers.first(name: "Location") == "/api/lists/\(Self.list)")
      let item = try #require((first.json["lists"] as? [[String: Any]])?.first)
      #expect(item["address"] as? String == Self.list)
      #expect(item["type"] as? String == "block")
      #expect(item["comment"] as? String == "first")
      #expect(item["groups"] as? [Int] == [0])
      #expect((first.object("processed")["success"] as? [[String: Any]])?.first?["item"] as? String == Self.list)

      let duplicate = try await PiholeHTTP.send(double, .POST, "/api/lists?type=block", body: body)
      #expect(duplicate.status == 201)
      let errors = try #require(duplicate.object("processed")["errors"] as? [[String: Any]])
      #expect(errors.count == 1)
      #expect(errors.first?["item"] as? String == Self.list)
      #expect(errors.first?["error"] as? String == "UNIQUE constraint failed: adlist.address, adlist.type")
      #expect((duplicate.object("processed")["success"] as? [Any])?.isEmpty == true)
      #expect(double.lists.count == 1)
    }
  }

  @Test func postingAnArrayReturnsOnlyTheLastList() async throws {
    try await PiholeDouble.with { double in
      let (sid, _) = try await PiholeHTTP.login(double)
      let addresses = ["https://a.website/1", "http://b.website/2", "file:///etc/pihole/local.list"]
      let body = #"{"address":["\#(addresses.joined(separator: #"",""#))"]}"#
      let reply = try await PiholeHTTP.send(
        double, .POST, "/api/lists?type=allow", body: body, headers: [("X-FTL-SID", sid)])
      #expect(reply.status == 201)
      let lists = try #require(reply.json["lists"] as? [[String: Any]])
      #expect(lists.map { $0["address"] as? String } == [addresses.last])
      #expect((reply.object("processed")["success"] as? [Any])?.count == 3)
      #expect(double.lists.map(\.address) == addresses)
      #expect(double.lists.allSatisfy { $0.type == "allow" })
    }
  }

  @Test func updatingAndDeletingAListByItsEncodedAddress() async throws {
    try await PiholeDouble.with(.init(password: nil)) { double in
      double.addList(Self.list, comment: "old", domains: ["ads.website"])
      let encoded = Self.list.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
      let put = try await PiholeHTTP.send(
        double, .PUT, "/api/lists/\(encoded)?type=block", body: #"{"comment":"new","enabled":false}"#)
      #expect(put.status == 200)
      #expect(double.lists.first?.comment == "new")
      #expect(double.lists.first?.enabled == false)

      let get = try await PiholeHTTP.send(double, .GET, "/api/lists/\(encoded)")
      #expect((get.json["lists"] as? [Any])?.count == 1)
      let allowOnly = try await PiholeHTTP.send(double, .GET, "/api/lists?type=allow")
      #expect((allowOnly.json["lists"] as? [Any])?.isEmpty == true)
      let putWithoutType = try await PiholeHTTP.send(double, .PUT, "/api/lists/\(encoded)", body: "{}")
      #expect(putWithoutType.status == 400)

      let noType = try await PiholeHTTP.send(double, .DELETE, "/api/lists/\(encoded)")
      #expect(noType.status == 400)
      let unknown = try await PiholeHTTP.send(double, .DELETE, "/api/lists/\(encoded)?type=allow")
      #expect(unknown.status == 404)
      let delete = try await PiholeHTTP.send(double, .DELETE, "/api/lists/\(encoded)?type=block")
      #expect(delete.status == 204)
      #expect(double.lists.isEmpty)
    }
  }

  @Test func batchDeleteRemovesLists() async throws {
    try await PiholeDouble.with(.init(password: nil)) { double in
      double.addList("https://a.website/1")
      double.addList("https://b.website/2")
      let reply = try await PiholeHTTP.send(
        double, .POST, "/api/lists:batchDelete", body: #"[{"item":"https://a.website/1","type":"block"}]"#)
      #expect(reply.status == 204)
      #expect(double.lists.map(\.address) == ["https://b.website/2"])
    }
  }

  @Test func domainRulesCanBeAddedChangedAndDeleted() async throws {
    try await PiholeDouble.with(.init(password: nil)) { double in
      let post = try await PiholeHTTP.send(
        double, .POST, "/api/domains/deny/exact", body: #"{"domain":["Ads.Website","track.website"],"comment":"c"}"#)
      #expect(post.status == 201)
      let items = try #require(post.json["domains"] as? [[String: Any]])
      #expect(items.map { $0["domain"] as? String } == ["ads.website", "track.website"])
      #expect(items.first?["unicode"] as? String == "ads.website")
      #expect(items.first?["kind"] as? String == "exact")

      let duplicate = try await PiholeHTTP.send(
        double, .POST, "/api/domains/deny/exact", body: #"{"domain":"ads.website"}"#)
      #expect(duplicate.status == 201)
      #expect((duplicate.object("processed")["errors"] as? [Any])?.count == 1)

      // Observed: naming another type in a PUT creates a second entry.
      let put = try await PiholeHTTP.send(
        double, .PUT, "/api/domains/deny/exact/ads.website", body: #"{"type":"allow","comment":"moved?"}"#)
      #expect(put.status == 200)
      #expect(double.domainRules.filter { $0.domain == "ads.website" }.map(\.type) == ["deny", "allow"])

      let delete = try await PiholeHTTP.send(double, .DELETE, "/api/domains/deny/exact/track.website")
      #expect(delete.status == 204)
      #expect(try await PiholeHTTP.send(double, .DELETE, "/api/domains/deny/exact/track.website").status == 404)

      let batch = try await PiholeHTTP.send(
        double, .POST, "/api/domains:batchDelete", body: #"[{"item":"ads.website","type":"allow","kind":"exact"}]"#)
      #expect(batch.status == 204)
      #expect(double.domainRules.map(\.type) == ["deny"])
      let get = try await PiholeHTTP.send(double, .GET, "/api/domains/deny")
      #expect((get.json["domains"] as? [Any])?.count == 1)
    }
  }

  @Test func anInvalidRegexIsRejected() async throws {
    try await PiholeDouble.with(.init(password: nil)) { double in
      let reply = try await PiholeHTTP.send(
        double, .POST, "/api/domains/deny/regex", body: #"{"domain":"(^|\\.)ads[.website$"}"#)
      #expect(reply.status == 400)
      #expect(
        reply.text.contains(#""error":{"key":"regex_error","message":"Regex validation failed","hint":"Missing ']'"}"#))
      #expect(double.domainRules.isEmpty)
      let valid = try await PiholeHTTP.send(
        double, .POST, "/api/domains/deny/regex", body: #"{"domain":"(^|\\.)ads\\.website$"}"#)
      #expect(valid.status == 201)
      #expect(double.domainRules.first?.domain == #"(^|\.)ads\.website$"#)
    }
  }
}
