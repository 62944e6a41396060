import Apply
import Foundation
import Store
import Testing
import Traffic

@testable import UseCases

@Suite("hits --replica's arguments (FleetHits.Log)")
struct FleetHitsTests {
  let replicas = [
    Replica(id: 1, profileID: 1, name: "bind2", feed: .transfer, resolver: "10.0.0.3", kind: "bind"),
    Replica(id: 2, profileID: 1, name: "pdns2", feed: .transfer, resolver: "10.0.0.5", kind: "pdns-recursor"),
    Replica(id: 3, profileID: 1, name: "upstairs", feed: .pihole, pihole: "pi.hole"),
    Replica(id: 4, profileID: 1, name: "laptop", feed: .verifiedOnly, resolver: "10.0.0.9"),
  ]

  @Test("NAME=PATH takes the format from a transfer replica's server; NAME=KIND:PATH any; NAME alone a Pi-hole")
  func read() throws {
    #expect(try FleetHits.Log(argument: "BIND2=/l", replicas: replicas).source == LogSource(kind: .bind, path: "/l"))
    #expect(
      try FleetHits.Log(argument: "laptop=dnsmasq:/d", replicas: replicas).source
        == LogSource(kind: .dnsmasq, path: "/d"))
    let pihole = try FleetHits.Log(argument: "upstairs", replicas: replicas)
    #expect(pihole.replica == "upstairs" && pihole.source == nil)
  }

  @Test("Refused: an unknown name, a server without its log, a log whose format cannot be told")
  func refused() {
    #expect(throws: FleetHitsError.unknownReplica("x=/l", known: ["bind2", "pdns2", "upstairs", "laptop"])) {
      try FleetHits.Log(argument: "x=/l", replicas: replicas)
    }
    #expect(throws: FleetHitsError.noLog("bind2")) { try FleetHits.Log(argument: "bind2", replicas: replicas) }
    #expect(throws: FleetHitsError.noFormat("pdns2", kind: "pdns-recursor")) {
      try FleetHits.Log(argument: "pdns2=/p", replicas: replicas)
    }
    #expect(throws: FleetHitsError.noFormat("laptop", kind: nil)) {
      try FleetHits.Log(argument: "laptop=/p", replicas: replicas)
    }
  }

  @Test("The target each replica is counted against: the policy zone for a transfer replica")
  func target() {
    #expect(FleetHits.target(for: replicas[0]) == .server(.bind))
    #expect(FleetHits.target(for: replicas[2]) == .hosts)
    #expect(FleetHits.target(for: replicas[3]) == nil)
  }
}
