import DNS
import Foundation
import TestSupport
import Testing

/// `apply --verify` on the targets that block with NXDOMAIN (dnsmasq's servers-file, RPZ on BIND, PowerDNS
/// Recursor and Knot Resolver): a name taken out of the list and still answered NXDOMAIN is still blocked,
/// unless the answer carries the SOA of a zone above the name (the upstream's own "no such name").
@Suite("apply --verify: removed names on the NXDOMAIN targets, against the real servers", .serialized)
struct VerifyRemovedTests {
  /// One real server loading the target's file, in front of the authoritative upstream.
  struct Setup: Sendable, CustomStringConvertible {
    var target: String
    var file: String

    var description: String { target }
  }

  static let setups = [
    Setup(target: "dnsmasq", file: "sanehosts.servers"), Setup(target: "bind", file: "db.sanehosts.rpz"),
    Setup(target: "pdns-recursor", file: "sanehosts.rpz"), Setup(target: "knot-resolver", file: "sanehosts.rpz"),
  ]

  /// Starts the setup's server on `file` with the upstream at `forwarder`; `body` gets its port and the
  /// apply options that reload it.
  static func withServer(
    _ setup: Setup, file: URL, forwarder: UInt16, directory: URL,
    _ body: (UInt16, [String], () -> String) async throws -> Void
  ) async throws {
    let loader = directory.appending(path: "sanehosts.lua")
    switch setup.target {
    case "dnsmasq":
      try await DNSServerProcess.withDnsmasq(
        arguments: ["--servers-file=\(file.path)", "--server=127.0.0.1#\(forwarder)"], directory: directory
      ) { try await body($0.port, ["--reload-pid", "\($0.pid)"], $0.log) }
    case "bind":
      try await DNSServerProcess.withNamed(zone: file, forwarder: forwarder, directory: directory) {
        try await body($0.port, ["--reload-pid", "\($0.pid)"], $0.log)
      }
    case "pdns-recursor":
      try await DNSServerProcess.withRecursor(luaConfig: loader, forwarder: forwarder, directory: directory) {
        let socket = DNSServerProcess.recursorSocketDirectory(port: $0.port, directory: directory)
        try await body($0.port, ["--reload-socket", socket.path], $0.log)
      }
    default:
      try await DNSServerProcess.withKnot(luaConfig: loader, forwarder: forwarder, directory: directory) {
        let socket = DNSServerProcess.knotControlSocket(port: $0.port, pid: $0.pid, directory: directory)
        try await body($0.port, ["--reload-socket", socket.path], $0.log)
      }
    }
  }

  @Test(
    "Regression: a removed name the server still answers NXDOMAIN (not reloaded) fails verification (exit 5); reloaded, a name gone upstream (NXDOMAIN with the zone's SOA) is let through",
    arguments: setups)
  func removedOnNXDOMAINTarget(_ setup: Setup) async throws {
    let listed = SemanticsMatrixTests.listed + ["gone.shop.blog"]
    let fixture = try await ApplyFixture.make(names: listed)
    defer { fixture.cli.remove() }
    let file = fixture.cli.directory.file(setup.file)
    try await fixture.cli.ok("apply", "--target", setup.target, "--output", file.path)
    func list(without removed: Set<String>) async throws {
      try Data(listed.filter { !removed.contains($0) }.joined(separator: "\n").utf8).write(to: fixture.list)
      try await fixture.cli.ok("update", "--quiet")
    }
    try await DNSServerProcess.withAuthoritative(
      zoneText: SemanticsMatrixTests.zone, moreZones: DNSServerProcess.controlZones,
      directory: fixture.cli.directory.url
    ) { upstream in
      try await Self.withServer(
        setup, file: file, forwarder: upstream.port, directory: fixture.cli.directory.url
      ) { port, reload, log in
        let apply = ["apply", "--target", setup.target, "--output", file.path, "--verify", "127.0.0.1:\(port)"]
        try await list(without: ["wild.shop.blog"])
        let unloaded = try await fixture.cli.runner.run(apply)
        if setup.target == "knot-resolver" {
          // kresd's policy.rpz watches its file and loads it again by itself (found on the real kresd).
          #expect(unloaded.status == 0, "\(unloaded.standardError)\n\(log())")
        } else {
          #expect(unloaded.status == 5, "\(unloaded.standardError)\n\(log())")
          #expect(unloaded.standardError.contains("0/1 removed names unblocked"), "\(unloaded.standardError)")
          #expect(
            unloaded.standardError.contains("removed but blocked: wild.shop.blog (NXDOMAIN"),
            "\(unloaded.standardError)")
        }
        try await list(without: ["wild.shop.blog", "cdn.shop.blog", "gone.shop.blog"])
        let reloaded = try await fixture.cli.runner.run(apply + ["--reload"] + reload)
        #expect(reloaded.status == 0, "\(reloaded.standardError)\n\(log())")
        // Every name taken out since the state the server last confirmed loading, not only this apply's
        // two: the first file (loaded at start; the apply before was not reloaded), or on kresd, which
        // loaded the file by itself, the one that verification confirmed.
        let removed = setup.target == "knot-resolver" ? "2/2" : "3/3"
        #expect(reloaded.standardError.contains("\(removed) removed names unblocked"), "\(reloaded.standardError)")
        #expect(reloaded.standardError.contains("1 of them gone upstream"), "\(reloaded.standardError)")
      }
    }
  }
}
