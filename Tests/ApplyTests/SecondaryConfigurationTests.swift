import Apply
import Blocklists
import DNS
import Foundation
import TestSupport
import Testing

@Suite("Secondary configurations: each server's text, and real secondaries fed by a real primary")
struct SecondaryConfigurationTests {
  private let primary = try! ServerAddress(parsing: "192.0.2.53:5301")

  @Test("BIND's: type secondary from the primary's address and port, and min-update-interval 0 said")
  func bind() {
    let text = SecondaryConfiguration(kind: .bind, primary: primary, copyFile: "/tmp/copy").text
    #expect(text.contains("type secondary;"))
    #expect(text.contains("primaries { 192.0.2.53 port 5301; };"))
    #expect(text.contains("file \"/tmp/copy\";"))
    #expect(text.contains("min-update-interval 0"))
    let key = TransactionKey(name: "k", secret: [1, 2, 3])
    let signed = SecondaryConfiguration(kind: .bind, primary: primary, key: key).text
    #expect(signed.contains("primaries { 192.0.2.53 port 5301 key \"k\"; };"))
    #expect(signed.contains(key.statement))
  }

  @Test("unbound's: an rpz clause with primary IP@PORT and allow-notify; a TSIG key is refused (1.17 signs none)")
  func unbound() {
    let configuration = SecondaryConfiguration(kind: .unbound, primary: primary)
    #expect(configuration.text.contains("primary: 192.0.2.53@5301"))
    #expect(configuration.text.contains("allow-notify: 192.0.2.53"))
    #expect(configuration.text.contains("zonefile: \"/var/lib/unbound/sanehosts.rpz\""))
    #expect(configuration.refusal == nil)
    let signed = SecondaryConfiguration(kind: .unbound, primary: primary, key: .generate(name: "k"))
    #expect(signed.refusal?.contains("unbound 1.17") == true)
  }

  @Test("PowerDNS Recursor's: rpzPrimary with the key's name, algorithm and secret when signed")
  func recursor() {
    let plain = SecondaryConfiguration(kind: .pdnsRecursor, primary: primary).text
    #expect(plain.contains("rpzPrimary(\"192.0.2.53:5301\", \"sanehosts.rpz\", {policyName=\"sanehosts\", refresh=1})"))
    let key = TransactionKey(name: "k", secret: [1, 2, 3])
    let signed = SecondaryConfiguration(kind: .pdnsRecursor, primary: primary, key: key).text
    #expect(signed.contains("tsigname=\"k\", tsigalgo=\"hmac-sha256\", tsigsecret=\"AQID\""))
  }

  /// A real BIND primary and real BIND, unbound and PowerDNS Recursor secondaries, each in a network
  /// namespace of its own, configured with SaneHosts' texts: the zone reaches every secondary, and a
  /// change sent to the primary as a signed update reaches each by IXFR (not a second whole copy).
  @Test(
    "Real secondaries in their own namespaces take the zone, then a change by IXFR", .timeLimit(.minutes(3)),
    .enabled(if: NetworkLab.isAvailable, "needs root and ip (iproute2) for network namespaces"))
  func realSecondaries() async throws {
    try await TemporaryDirectory.with { directory in
      try await NetworkLab.with(hosts: 5) { lab in
        let (upstream, primaryHost) = (lab.hosts[0], lab.hosts[1])
        let secondaries = Array(lab.hosts[2...])
        let names = (1...2000).map { "tracker-\($0).website" }
        let before = try await Self.zone(names)
        let after = try await Self.zone(Array(names.dropFirst(20)) + ["fresh-1.website", "fresh-2.website"])
        let zoneFile = directory.url.appending(path: "primary-zone.rpz")
        try Data(before).write(to: zoneFile)
        let key = TransactionKey.generate(name: PrimaryZone.updateKeyName)
        let primary = PrimaryZone(
          file: zoneFile.path, secondaries: secondaries.map { try! ServerAddress(parsing: $0.address) }, updateKey: key)
        let primaryAddress = try ServerAddress(parsing: primaryHost.address)
        let kinds: [SecondaryConfiguration.Kind] = [.bind, .unbound, .pdnsRecursor]
        try await DNSServerProcess.withLabUpstream(in: upstream, of: lab, directory: directory.url) { _ in
          try await DNSServerProcess.withLabPrimary(primary, in: primaryHost, of: lab, directory: directory.url) { _ in
            try await Self.withSecondaries(
              kinds, primary: primaryAddress, upstream: upstream.address, hosts: secondaries, lab: lab,
              directory: directory.url
            ) { servers in
              for server in servers {
                try await server.until("tracker-1.website", is: "NXDOMAIN")
                #expect(try await Dig(server: server.address, port: 53).query("unlisted.website") == ["192.0.2.1"])
              }
              let update = PrimaryZone.update(from: before, to: after)
              #expect(update.removals.count == 40 && update.additions.count == 4)
              let result = try await Resolver(server: primaryAddress).send(update, key: key, timeout: .seconds(5))
              #expect(result.messages == 1 && result.changes == 44)
              for server in servers {
                // Each name asked once: a recursor's packet cache keeps an answer it gave before the change.
                try await server.until((2...20).map { "tracker-\($0).website" }, are: "NOERROR")
                try await server.until(["fresh-1.website", "fresh-2.website"], are: "NXDOMAIN")
              }
              // The change came as an increment: 44 changes and the SOA's two versions, not 4,003 records.
              let transfers = servers[0].log().split(separator: "\n").filter { $0.contains("Transfer completed:") }
              #expect(
                transfers.count == 2 && transfers.last?.contains(" 1 messages, 48 records") == true, "\(transfers)")
              let serial = try await Resolver(server: primaryAddress).serial(of: PrimaryZone.zone, timeout: .seconds(2))
              let copied = try await Resolver(server: try ServerAddress(parsing: secondaries[0].address)).serial(
                of: PrimaryZone.zone, timeout: .seconds(2))
              #expect(serial != nil && copied == serial)
            }
          }
        }
      }
    }
  }

  /// The zone SaneHosts renders for `names`.
  static func zone(_ names: [String]) async throws -> [UInt8] {
    let list = try await Compiler().compile([.text(names.joined(separator: "\n") + "\n", name: "t")], rules: RuleSet())
    return try await ServerTarget.bind.render(list, title: "Test", date: Date(timeIntervalSince1970: 1_800_000_000))
  }

  /// Starts one secondary of each kind in `hosts`, in turn, and runs `body` with all of them.
  static func withSecondaries(
    _ kinds: [SecondaryConfiguration.Kind], primary: ServerAddress, upstream: String, hosts: [NetworkLab.Host],
    lab: NetworkLab, directory: URL, started: [DNSServerProcess] = [],
    _ body: ([DNSServerProcess]) async throws -> Void
  ) async throws {
    guard let kind = kinds.first else { return try await body(started) }
    let host = hosts[started.count]
    let configuration = SecondaryConfiguration(
      kind: kind, primary: primary,
      copyFile: directory.appending(path: "copy-\(kind.rawValue).rpz").path)
    try await DNSServerProcess.withLabSecondary(
      configuration, upstream: upstream, in: host, of: lab, directory: directory
    ) {
      server in
      try await withSecondaries(
        Array(kinds.dropFirst()), primary: primary, upstream: upstream, hosts: hosts, lab: lab, directory: directory,
        started: started + [server], body)
    }
  }
}

@Suite(
  "Signed transfers: a key on the primary lets the secondaries that hold it copy, and no other",
  .enabled(if: NetworkLab.isAvailable, "needs root and ip (iproute2) for network namespaces"))
struct SignedTransferTests {
  @Test(
    "BIND and PowerDNS Recursor with the key copy the zone; unbound without it is refused and blocks nothing",
    .timeLimit(.minutes(3)))
  func signed() async throws {
    try await TemporaryDirectory.with { directory in
      try await NetworkLab.with(hosts: 5) { lab in
        let (upstream, primaryHost) = (lab.hosts[0], lab.hosts[1])
        let zone = try await SecondaryConfigurationTests.zone(["tracker-1.website", "tracker-2.website"])
        let zoneFile = directory.url.appending(path: "primary-zone.rpz")
        try Data(zone).write(to: zoneFile)
        let transferKey = TransactionKey.generate(name: PrimaryZone.transferKeyName)
        let primary = PrimaryZone(
          file: zoneFile.path, secondaries: lab.hosts[2...].map { try! ServerAddress(parsing: $0.address) },
          transferKey: transferKey, updateKey: .generate(name: PrimaryZone.updateKeyName))
        #expect(
          primary.configuration.contains("allow-transfer { key \"sanehosts-update\"; key \"sanehosts-transfer\"; };"))
        let address = try ServerAddress(parsing: primaryHost.address)
        try await DNSServerProcess.withLabUpstream(in: upstream, of: lab, directory: directory.url) { _ in
          try await DNSServerProcess.withLabPrimary(primary, in: primaryHost, of: lab, directory: directory.url) {
            server in
            let signedBind = SecondaryConfiguration(
              kind: .bind, primary: address, key: transferKey, copyFile: directory.url.appending(path: "b").path)
            let signedRecursor = SecondaryConfiguration(kind: .pdnsRecursor, primary: address, key: transferKey)
            let unsigned = SecondaryConfiguration(
              kind: .unbound, primary: address, copyFile: directory.url.appending(path: "u").path)
            for (configuration, host) in zip([signedBind, signedRecursor], lab.hosts[2...]) {
              try await DNSServerProcess.withLabSecondary(
                configuration, upstream: upstream.address, in: host, of: lab, directory: directory.url
              ) { secondary in
                try await secondary.until("tracker-1.website", is: "NXDOMAIN")
              }
            }
            try await DNSServerProcess.withLabSecondary(
              unsigned, upstream: upstream.address, in: lab.hosts[4], of: lab, directory: directory.url
            ) { secondary in
              let dig = try Dig(server: secondary.address, port: 53)
              var refused = false
              for _ in 0..<100 where !refused {
                refused = server.log().split(separator: "\n").contains {
                  $0.contains(" \(lab.hosts[4].address)#") && $0.contains("AXFR/IN' denied")
                }
                try await Task.sleep(for: .milliseconds(100))
              }
              #expect(refused, "the primary's log:\n\(server.log())")
              #expect(try await dig.status("tracker-1.website") == "NOERROR")
            }
          }
        }
      }
    }
  }
}
