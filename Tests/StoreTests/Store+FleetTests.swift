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

@Suite("What the fleet was verified at")
struct StoreFleetVerifiedTests {
  @Test("A replica's primary is kept; its verified state is recorded and read back, the serial too")
  func verified() async throws {
    try await withStore { store, _ throws in
      let added = try store.addReplica(
        .init(name: "core", feed: .transfer, resolver: "10.0.0.2", kind: "bind", primaryAddress: "10.0.0.1:5301"))
      #expect(added.primaryAddress == "10.0.0.1:5301" && added.verifiedAt == nil)
      let date = Date(timeIntervalSince1970: 1_800_000_000)
      try store.recordVerified(added, fingerprint: "abc", serial: 4_000_000_000, at: date)
      let read = try store.replica(named: "core")
      #expect(read.verifiedAt == date && read.verifiedFingerprint == "abc" && read.verifiedSerial == 4_000_000_000)
    }
  }
}

@Suite("The fleet's changes")
struct FleetChangeTests {
  @Test("Changes after a fingerprint, oldest first; none after the latest; unknown fingerprint: nil")
  func after() async throws {
    try await withStore { store, _ throws in
      try store.recordFleetChange(fingerprint: "f1", serial: 1, added: ["a.website"], removed: [])
      try store.recordFleetChange(fingerprint: "f2", serial: 2, added: ["b.website"], removed: ["a.website"])
      try store.recordFleetChange(fingerprint: "f3", serial: nil, added: [], removed: ["b.website"])
      #expect(try store.fleetChanges(after: "f1")?.map(\.fingerprint) == ["f2", "f3"])
      #expect(try store.fleetChanges(after: "f2")?.first?.removed == ["b.website"])
      #expect(try store.fleetChanges(after: "f3") == [])
      #expect(try store.fleetChanges(after: "never") == nil)
      #expect(try store.fleetChanges(after: nil) == nil)
      // Another profile has changes of its own.
      try store.createProfile("kids")
      #expect(try store.fleetChanges(in: "kids", after: "f1") == nil)
    }
  }

  @Test("Only the latest 100 are kept, and at most 2,000 names of each kind in one")
  func bounded() async throws {
    try await withStore { store, _ throws in
      for index in 0..<105 {
        try store.recordFleetChange(fingerprint: "f\(index)", serial: nil, added: [], removed: [])
      }
      #expect(try store.fleetChanges(after: "f4") == nil)
      #expect(try store.fleetChanges(after: "f5")?.count == 99)
      let many = (0..<2500).map { "n\($0).website" }
      try store.recordFleetChange(fingerprint: "big", serial: nil, added: many, removed: many)
      let big = try #require(try store.fleetChanges(after: "f104")?.last)
      #expect(big.added.count == 2000 && big.removed.count == 2000)
    }
  }
}
