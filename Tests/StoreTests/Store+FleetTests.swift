import Foundation
import TestSupport
import Testing

@testable import Store

@Suite("A profile's fleet of replicas")
struct StoreFleetTests {
  @Test("Added per profile by name, listed by name, found in any case, removed; a name is used once a profile")
  func addListRemove() async throws {
    try await withStore { store, _ throws in
      try store.addReplica(.init(name: "upstairs", feed: .pihole, pihole: "pi.hole"))
      try store.addReplica(.init(name: "Core", feed: .transfer, resolver: "10.0.0.2", kind: "unbound"))
      try store.addReplica(.init(name: "laptop", feed: .verifiedOnly, resolver: "10.0.0.9:5353"))
      #expect(try store.replicas().map(\.name) == ["Core", "laptop", "upstairs"])
      #expect(try store.replica(named: "core").kind == "unbound")
      #expect(throws: StoreError.alreadyExists(kind: "replica", name: "UPSTAIRS")) {
        try store.addReplica(.init(name: "UPSTAIRS", feed: .pihole, pihole: "other"))
      }
      // Another profile has a fleet of its own; the same name is free there.
      try store.createProfile("kids")
      try store.addReplica(.init(name: "upstairs", feed: .pihole, pihole: "kids.pi"), to: "kids")
      #expect(try store.replicas(in: "kids").map(\.pihole) == ["kids.pi"])
      try store.removeReplica(named: "upstairs")
      #expect(try store.replicas().map(\.name) == ["Core", "laptop"])
      #expect(throws: StoreError.self) { try store.removeReplica(named: "upstairs") }
    }
  }

  @Test("What a feed needs: a Pi-hole's host; a transfer's address and kind; a verified one's address")
  func checked() async throws {
    try await withStore { store, _ throws in
      for bad in [
        Store.NewReplica(name: "p", feed: .pihole),
        Store.NewReplica(name: "t", feed: .transfer, resolver: "10.0.0.2"),
        Store.NewReplica(name: "t", feed: .transfer, resolver: "10.0.0.2", kind: "dnsmasq"),
        Store.NewReplica(name: "v", feed: .verifiedOnly),
        Store.NewReplica(name: "-x", feed: .verifiedOnly, resolver: "10.0.0.2"),
        Store.NewReplica(name: "a b", feed: .verifiedOnly, resolver: "10.0.0.2"),
      ] {
        #expect(throws: StoreError.self, "\(bad)") { try store.addReplica(bad) }
      }
      #expect(try store.replicas().isEmpty)
    }
  }
}
