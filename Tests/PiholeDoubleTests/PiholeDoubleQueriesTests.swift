import Foundation
import NIOHTTP1
import TestSupport
import Testing

/// The double's `/api/queries` against FTL v6.4.1's source (docs/pihole-queries.md).
@Suite("Pi-hole double: the query log")
struct PiholeDoubleQueriesTests {
  static func logged(_ double: PiholeDouble, count: Int) {
    var queries: [PiholeDouble.LoggedQuery] = []
    for index in 0..<count {
      let gravity = index % 3 == 0
      let time = 1_795_757_000.0 + Double(index)
      queries.append(
        PiholeDouble.LoggedQuery(
          time: time, type: index % 2 == 0 ? "A" : "AAAA", status: gravity ? "GRAVITY" : "FORWARDED",
          domain: "name\(index).website", listID: gravity ? -3 : nil))
    }
    double.log(queries)
  }

  static func rows(_ reply: PiholeHTTPReply) -> [[String: Any]] { reply.json["queries"] as? [[String: Any]] ?? [] }

  @Test("Newest first, 100 by default; the cursor is the newest id and, when sent, an upper bound echoed back")
  func cursorAndPaging() async throws {
    try await PiholeDouble.with(.init(password: nil)) { double in
      Self.logged(double, count: 250)
      let first = try await PiholeHTTP.send(double, .GET, "/api/queries")
      #expect(first.status == 200)
      #expect(Self.rows(first).count == 100)
      #expect(Self.rows(first).first?["id"] as? Int == 249)
      #expect(first.json["cursor"] as? Int == 249)
      #expect(first.json["recordsTotal"] as? Int == 250 && first.json["recordsFiltered"] as? Int == 250)
      Self.logged(double, count: 5)  // newer queries do not shift a fixed cursor's pages
      let second = try await PiholeHTTP.send(double, .GET, "/api/queries?cursor=249&start=100&length=100")
      #expect(Self.rows(second).first?["id"] as? Int == 149)
      #expect(second.json["cursor"] as? Int == 249)
      let keyset = try await PiholeHTTP.send(double, .GET, "/api/queries?cursor=49&length=-1")
      #expect(Self.rows(keyset).count == 50)
      let counts = try await PiholeHTTP.send(double, .GET, "/api/queries?length=0&upstream=blocklist")
      #expect(Self.rows(counts).isEmpty && counts.json["recordsFiltered"] as? Int == 86)  // 84 of the 250, 2 of the 5
    }
  }

  @Test("from is inclusive, until exclusive; a row's fields as FTL writes them")
  func windowAndFields() async throws {
    try await PiholeDouble.with(.init(password: nil)) { double in
      Self.logged(double, count: 10)
      let reply = try await PiholeHTTP.send(double, .GET, "/api/queries?from=1795757003&until=1795757006")
      #expect(Self.rows(reply).compactMap { $0["id"] as? Int } == [5, 4, 3])
      #expect(reply.json["recordsFiltered"] as? Int == 3 && reply.json["recordsTotal"] as? Int == 10)
      let row = try #require(Self.rows(reply).last)
      #expect(row["status"] as? String == "GRAVITY" && row["list_id"] as? Int == -3)
      #expect(row["upstream"] is NSNull)
      #expect((row["ede"] as? [String: Any])?["code"] as? Int == -1)
      #expect((row["client"] as? [String: Any])?["name"] is NSNull)
    }
  }

  @Test("A bad cursor or status is a 400 naming it; bad numbers are ignored; no session is a 401")
  func errors() async throws {
    try await PiholeDouble.with(.init(password: nil)) { double in
      Self.logged(double, count: 3)
      let big = try await PiholeHTTP.send(double, .GET, "/api/queries?cursor=99")
      #expect(
        big.status == 400 && big.object("error")["hint"] as? String == "Cursor larger than largest database index")
      let status = try await PiholeHTTP.send(double, .GET, "/api/queries?status=BLOCKED")
      #expect(status.status == 400 && status.object("error")["message"] as? String == "Requested status is invalid")
      let ignored = try await PiholeHTTP.send(double, .GET, "/api/queries?length=abc&from=x")
      #expect(ignored.status == 200 && Self.rows(ignored).count == 3)
    }
    try await PiholeDouble.with { double in
      let refused = try await PiholeHTTP.send(double, .GET, "/api/queries?cursor=x")
      #expect(refused.status == 401)
    }
  }
}
