import DNS
import Foundation
import Store
import TestSupport
import Testing

@testable import UseCases

@Suite("Checking the fleet's replicas by their answers (FleetCheck)", .serialized)
struct FleetCheckTests {
  /// A server that blocks every `.website` name (NXDOMAIN) and answers the rest with an address.
  static let blocker: FakeDNSServer.Behaviour = { request in
    guard let question = request.message?.questions.first else { return [] }
    let name = question.name.hasSuffix(".") ? String(question.name.dropLast()) : question.name
    guard name.hasSuffix(".website") else {
      let answers = question.type == .a ? [Record(name: question.name, data: .a(IPv4Address("198.51.100.4")!))] : []
      return [.bytes(FakeDNSServer.response(to: request, answers: answers, code: .noError))]
    }
    return [.bytes(FakeDNSServer.response(to: request, answers: [], code: .nxDomain))]
  }

  @Test("A replica that blocks the profile is verified and recorded so; one that answers nothing is unreachable")
  func verifiedAndUnreachable() async throws {
    let updated = try UpdatedStore()
    defer { updated.remove() }
    try updated.add("0.0.0.0 ads.website\n0.0.0.0 tracker.website\n", key: "ads")
    try await updated.update()
    try await FakeDNSServer.with(Self.blocker) { server in
      try updated.store.addReplica(.init(name: "laptop", feed: .verifiedOnly, resolver: "127.0.0.1:\(server.port)"))
      try await FreePort.withClosedPort { closed in
        try updated.store.addReplica(.init(name: "attic", feed: .verifiedOnly, resolver: "127.0.0.1:\(closed)"))
        // 5 s: under the whole suite's load (this test then takes about a minute) a 1 s wait for the fake
        // server's answers ran out in two runs of three.
        let reports = try await FleetCheck(store: updated.store, timeout: .seconds(5)).run()
        #expect(reports.map(\.name) == ["attic", "laptop"])
        #expect(reports[0].verdict == .unreachable && reports[0].detail.contains("cannot be reached"), "\(reports[0])")
        #expect(reports[1].verdict == .verified, "\(reports[1])")
        #expect(reports[1].detail.hasPrefix("verified: 2/2 sampled names blocked"), "\(reports[1].detail)")
      }
      let laptop = try updated.store.replica(named: "laptop")
      let expected = try await FleetCheck(store: updated.store).expectations()
      #expect(laptop.verifiedFingerprint == expected.fingerprint && laptop.verifiedAt != nil)
      #expect(try updated.store.replica(named: "attic").verifiedAt == nil)
    }
  }

  @Test(
    "Regression: a transfer replica is behind, not verified, until the primary has taken the profile as it is now (a primary down at the sync left every secondary “verified”)"
  )
  func transferBehindUntilPushed() async throws {
    let updated = try UpdatedStore()
    defer { updated.remove() }
    try updated.add("0.0.0.0 ads.website\n", key: "ads")
    try await updated.update()
    try await FakeDNSServer.with(Self.blocker) { server in
      let store = updated.store
      try store.addReplica(
        .init(name: "core", feed: .transfer, resolver: "127.0.0.1:\(server.port)", kind: "unbound"))
      let check = FleetCheck(store: store, timeout: .seconds(5))
      let never = try await check.run()
      #expect(never.first?.verdict == .behind && never.first?.answersMatch == true, "\(never)")
      #expect(never.first?.behind?.contains("has not taken the profile") == true, "\(never)")
      #expect(try store.replica(named: "core").verifiedAt == nil)
      // The primary takes the profile: verified, recorded at that state.
      let current = try await check.expectations().fingerprint
      try store.recordFleetChange(fingerprint: current, serial: 7, added: ["ads.website"], removed: [])
      #expect(try await check.run().first?.verdict == .verified)
      #expect(try store.replica(named: "core").verifiedFingerprint == current)
      // The profile changes and the push fails (no change recorded): behind, and its baseline stays.
      try store.recordFleetChange(fingerprint: "older", serial: 8, added: [], removed: [])
      let after = try await check.run()
      #expect(after.first?.verdict == .behind, "\(after)")
      #expect(after.first?.behind?.contains("has changed since the primary last took it") == true)
    }
  }

  @Test("The names asked: the sample, every name added since the replica was verified, and those removed since")
  func changedNames() async throws {
    let updated = try UpdatedStore()
    defer { updated.remove() }
    try updated.add("0.0.0.0 ads.website\n", key: "ads")
    try await updated.update()
    let store = updated.store
    let replica = try store.addReplica(.init(name: "r", feed: .verifiedOnly, resolver: "127.0.0.1"))
    try store.recordFleetChange(fingerprint: "f1", serial: 1, added: ["a.website"], removed: [])
    try store.recordVerified(replica, fingerprint: "f1", serial: nil)
    try store.recordFleetChange(
      fingerprint: "f2", serial: 2, added: ["b.website", "c.website"], removed: ["a.website"])
    try store.recordFleetChange(fingerprint: "f3", serial: 3, added: ["a.website"], removed: ["c.website"])
    let check = FleetCheck(store: store)
    let expected = FleetCheck.Expectations(fingerprint: "f3", sample: ["ads.website"], primarySerial: 3)
    let names = check.changedNames(since: try store.replica(named: "r"), expected: expected)
    #expect(names.blocked == ["a.website", "ads.website", "b.website"])
    #expect(names.removed == ["c.website"])
    // Never verified: every change kept is asked, not the sample alone (a replica that never confirmed a
    // change may lack any of them).
    let fresh = try store.addReplica(.init(name: "new", feed: .verifiedOnly, resolver: "127.0.0.1"))
    let asked = check.changedNames(since: fresh, expected: expected)
    #expect(asked.blocked == ["a.website", "ads.website", "b.website"] && asked.removed == ["c.website"])
  }

  @Test(
    "Regression: names a change removed that the profile still blocks (folded under a newly listed parent) are not asked as removed; the rules' names are asked"
  )
  func foldedNamesAndRules() async throws {
    let updated = try UpdatedStore()
    defer { updated.remove() }
    try updated.add("0.0.0.0 ads.website\n", key: "ads")
    try await updated.update()
    let store = updated.store
    let replica = try store.addReplica(.init(name: "r", feed: .transfer, resolver: "127.0.0.1", kind: "bind"))
    try store.recordFleetChange(fingerprint: "f1", serial: 1, added: ["x.parent.website"], removed: [])
    try store.recordVerified(replica, fingerprint: "f1", serial: 1)
    // The parent came with a new list: the child's own record went, folded under the parent's wildcard.
    try store.recordFleetChange(
      fingerprint: "f2", serial: 2, added: ["parent.website"], removed: ["x.parent.website", "gone.website"])
    var expected = FleetCheck.Expectations(fingerprint: "f2", sample: [], primarySerial: 2)
    expected.blocks = { name, covering in
      name == "parent.website" || (covering && name.hasSuffix(".parent.website"))
    }
    expected.denied = ["denied.website"]
    expected.allowed = ["allowed.website"]
    let asked = FleetCheck(store: store).changedNames(since: try store.replica(named: "r"), expected: expected)
    #expect(asked.blocked == ["denied.website", "parent.website"])
    #expect(asked.removed == ["gone.website"])
    #expect(asked.allowed == ["allowed.website"])
  }

  @Test("How far behind: serials behind the primary, never verified, or verified before the latest change")
  func behind() async throws {
    let updated = try UpdatedStore()
    defer { updated.remove() }
    let check = FleetCheck(store: updated.store)
    let expected = FleetCheck.Expectations(fingerprint: "f2", sample: [], primarySerial: 1_800_000_005)
    var replica = Replica(id: 1, profileID: 1, name: "r", feed: .transfer)
    #expect(
      check.behind(replica, serial: 1_800_000_002, expected: expected) == "3 serials behind the primary (1800000005)")
    #expect(
      check.behind(replica, serial: 1_800_000_004, expected: expected) == "1 serial behind the primary (1800000005)")
    #expect(check.behind(replica, serial: nil, expected: expected) == "never verified")
    replica.verifiedFingerprint = "f1"
    replica.verifiedAt = Date(timeIntervalSince1970: 1_800_000_000)
    #expect(
      check.behind(replica, serial: nil, expected: expected)?.hasPrefix("last verified 2027-01-15T08:00:00Z") == true)
    replica.verifiedFingerprint = "f2"
    #expect(check.behind(replica, serial: 1_800_000_005, expected: expected) == nil)
  }
}
