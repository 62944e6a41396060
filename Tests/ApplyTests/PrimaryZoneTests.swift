import DNS
import Foundation
import TestSupport
import Testing

@testable import Apply

@Suite("The primary: its configuration, and a real BIND taking signed updates and no others")
struct PrimaryZoneTests {
  private let key = TransactionKey(name: PrimaryZone.updateKeyName, secret: Array(repeating: 7, count: 32))

  @Test("By address: allow-transfer and also-notify name each secondary; updates by the key only; NOTIFY at once")
  func byAddress() throws {
    let primary = PrimaryZone(
      file: "/var/lib/bind/z.rpz",
      secondaries: [try ServerAddress(parsing: "192.0.2.2"), try ServerAddress(parsing: "192.0.2.3:5353")],
      updateKey: key)
    let text = primary.configuration
    #expect(text.contains(key.statement))
    #expect(text.contains("zone \"sanehosts.rpz\" {\n  type primary;\n  file \"/var/lib/bind/z.rpz\";"))
    #expect(text.contains("allow-update { key \"sanehosts-update\"; };"))
    #expect(text.contains("allow-transfer { key \"sanehosts-update\"; 192.0.2.2; 192.0.2.3; };"))
    #expect(text.contains("also-notify { 192.0.2.2 port 53; 192.0.2.3 port 5353; };"))
    #expect(text.contains("notify-delay 0;") && text.contains("ixfr-from-differences yes;"))
    // SaneHosts reads the zone back with the update key when the serial is not the one it confirmed.
    #expect(
      PrimaryZone(file: "f", secondaries: [], updateKey: key).configuration.contains(
        "allow-transfer { key \"sanehosts-update\"; };"))
  }

  @Test("With a transfer key: allow-transfer by the key, both keys' statements written once each")
  func byKey() {
    let transfer = TransactionKey(name: PrimaryZone.transferKeyName, secret: [1])
    let text = PrimaryZone(file: "f", secondaries: [], transferKey: transfer, updateKey: key).configuration
    #expect(text.contains("allow-transfer { key \"sanehosts-update\"; key \"sanehosts-transfer\"; };"))
    #expect(text.components(separatedBy: "key \"sanehosts-transfer\" {").count == 2)
    #expect(text.components(separatedBy: "key \"sanehosts-update\" {").count == 2)
  }

  @Test("The update between two renderings: only the lines that differ, owners made absolute, the SOA never")
  func update() {
    let old = Array(
      "$TTL 300\n@ IN SOA localhost. root.localhost. 1 3600 600 86400 300\n@ IN NS localhost.\na.website CNAME .\n*.a.website CNAME .\nb.website CNAME .\n; a comment\n"
        .utf8)
    let new = Array(
      "$TTL 300\n@ IN SOA localhost. root.localhost. 2 3600 600 86400 300\n@ IN NS localhost.\nb.website CNAME .\nc.website CNAME rpz-passthru.\n"
        .utf8)
    let update = PrimaryZone.update(from: old, to: new)
    #expect(update.zone == "sanehosts.rpz")
    #expect(update.removals.map(\.name) == ["*.a.website.sanehosts.rpz", "a.website.sanehosts.rpz"])
    #expect(update.additions == [Record(name: "c.website.sanehosts.rpz", data: .cname("rpz-passthru"))])
    #expect(PrimaryZone.update(from: new, to: new).isEmpty)
  }

  @Test(
    "A real BIND primary applies a signed update with a new serial; refuses unsigned and wrongly signed ones",
    .timeLimit(.minutes(2)), .enabled(if: NetworkLab.isAvailable, "needs root and ip (iproute2) for network namespaces")
  )
  func realPrimary() async throws {
    try await TemporaryDirectory.with { directory in
      try await NetworkLab.with(hosts: 1) { lab in
        let zoneFile = directory.url.appending(path: "zone.rpz")
        try Data(try await SecondaryConfigurationTests.zone(["tracker-1.website"])).write(to: zoneFile)
        let primary = PrimaryZone(file: zoneFile.path, secondaries: [], updateKey: key)
        try await DNSServerProcess.withLabPrimary(primary, in: lab.hosts[0], of: lab, directory: directory.url) { _ in
          let resolver = Resolver(server: try ServerAddress(parsing: lab.hosts[0].address))
          let before = try #require(try await resolver.serial(of: PrimaryZone.zone, timeout: .seconds(2)))
          let update = ZoneUpdate(
            zone: PrimaryZone.zone, additions: [Record(name: "fresh.website.sanehosts.rpz", data: .cname("."))])
          let result = try await resolver.send(update, key: key, timeout: .seconds(5))
          #expect(result.messages == 1 && result.changes == 1 && result.bytesSent > 0)
          #expect(try await resolver.serial(of: PrimaryZone.zone, timeout: .seconds(2)) == before + 1)

          await #expect(
            throws: ResolverError.updateRejected(
              zone: PrimaryZone.zone, server: "\(lab.hosts[0].address):53", code: .refused, signature: nil)
          ) {
            try await resolver.send(update, key: nil, timeout: .seconds(5))
          }
          let wrong = TransactionKey(name: key.name, secret: Array(repeating: 8, count: 32))
          do {
            _ = try await resolver.send(update, key: wrong, timeout: .seconds(5))
            Issue.record("a wrongly signed update was accepted")
          } catch let error as ResolverError {
            guard case .updateRejected(_, _, let code, let signature) = error else { throw error }
            #expect(code.rawValue == 9 && signature == 16)
            #expect(error.localizedDescription.contains("BADSIG"))
            #expect(error.recoverySuggestion?.contains("the same name and secret") == true)
          }
          // A record whose target changes: added first (BIND replaces a name's CNAME), then the old removed
          // (by then not there): the name is never without a record between the two messages.
          let retarget = ZoneUpdate(
            zone: PrimaryZone.zone,
            removals: [Record(name: "fresh.website.sanehosts.rpz", data: .cname("."))],
            additions: [Record(name: "fresh.website.sanehosts.rpz", data: .cname("rpz-passthru"))])
          _ = try await resolver.send(retarget, key: key, timeout: .seconds(5))
          let zone = try await resolver.transfer(PrimaryZone.zone, key: key, timeout: .seconds(5))
          #expect(
            zone.records.filter { $0.name == "fresh.website.sanehosts.rpz" }.map(\.data) == [.cname("rpz-passthru")])
          let unknown = TransactionKey(name: "someone-else", secret: key.secret)
          await #expect(throws: ResolverError.self) {
            try await resolver.send(update, key: unknown, timeout: .seconds(5))
          }
          #expect(try await resolver.serial(of: PrimaryZone.zone, timeout: .seconds(2)) == zone.serial)
        }
      }
    }
  }
}

@Suite("What a push reports")
struct PrimaryPushTests {
  @Test("The names a push blocks and unblocks: owners of name CNAME . only, not their *. twins nor exceptions")
  func names() {
    let records = [
      Record(name: "a.website.sanehosts.rpz", data: .cname(".")),
      Record(name: "*.a.website.sanehosts.rpz", data: .cname(".")),
      Record(name: "b.website.sanehosts.rpz", data: .cname("rpz-passthru")),
    ]
    #expect(PrimaryPush.blockedNames(records) == ["a.website"])
  }

  @Test("One line: what was sent and the serial the primary answers; nothing to send says so")
  func summary() {
    var outcome = PrimaryPush.Outcome(serial: 7, removed: 10, added: 2, messages: 1, readBack: false)
    #expect(outcome.summary == "sent 10 records removed and 2 added to the primary as 1 update: it answers serial 7")
    outcome = PrimaryPush.Outcome(serial: 7, removed: 0, added: 0, messages: 0, readBack: true)
    #expect(outcome.summary == "the primary already held the profile (its zone read back first): it answers serial 7")
  }
}
