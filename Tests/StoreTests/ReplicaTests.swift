import Foundation
import Testing

@testable import Store

@Suite("A replica")
struct ReplicaTests {
  @Test("Feeds are named as the command line takes them; the transfer kinds are the servers that take RPZ")
  func names() throws {
    #expect(Replica.Feed.allCases.map(\.rawValue) == ["pihole", "transfer", "verified-only"])
    #expect(Replica.transferKinds == ["bind", "unbound", "pdns-recursor"])
    let replica = Replica(id: 1, profileID: 1, name: "core", feed: .transfer, resolver: "10.0.0.2", kind: "bind")
    let data = try JSONEncoder().encode(replica)
    #expect(try JSONDecoder().decode(Replica.self, from: data) == replica)
  }
}
