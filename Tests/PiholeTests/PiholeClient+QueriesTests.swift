import Foundation
import Pihole
import TestSupport
import Testing

@Suite("Pi-hole client: the query log")
struct PiholeClientQueriesTests {
  @Test("Every query once, newest first, a page at a time by id; from is sent; one session, logged out")
  func paging() async throws {
    try await PiholeDouble.with { double in
      double.log(
        (0..<2_345).map { index in
          PiholeDouble.LoggedQuery(
            time: 1_795_757_000 + Double(index), status: index % 2 == 0 ? "GRAVITY" : "CACHE",
            domain: "Name\(index).website")
        })
      let host = try PiholeHost(double.baseURL)
      let pages = try await PiholeClient.withSession(host: host, password: "secret") { client in
        var pages: [[PiholeQuery]] = []
        try await client.queries(from: Date(timeIntervalSince1970: 1_795_757_100), pageSize: 1000) { pages.append($0) }
        return pages
      }
      #expect(pages.map(\.count) == [1000, 1000, 245])
      let ids = pages.flatMap { $0.map(\.id) }
      #expect(ids == Array((100..<2_345).reversed()))
      #expect(pages.first?.first?.domain == "name2344.website" && pages.first?.first?.isBlocked == true)
      #expect(pages.first?.first?.time == Date(timeIntervalSince1970: 1_795_759_344))
      #expect(double.activeSessions == 0)
    }
  }
}
