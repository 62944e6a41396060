import Apply
import DNS
import Foundation
import TestSupport
import Testing

/// `apply --target bind --transfer-to …`: this machine's BIND as the fleet's primary, a real BIND and a
/// real unbound secondary in network namespaces of their own.
@Suite("apply --transfer-to: BIND as the fleet's primary, fed by signed updates")
struct TransferOptionsTests {
  @Test("--transfer-to is refused without --target bind, with --reload, with --verify, and with a bad address")
  func refusals() async throws {
    let cli = try StoreCLI()
    defer { cli.remove() }
    for (arguments, message) in [
      (["--target", "unbound", "--transfer-to", "192.0.2.2"], "use them with --target bind"),
      (["--target", "bind", "--transfer-to", "192.0.2.2", "--reload"], "leave out --reload"),
      (["--target", "bind", "--transfer-to", "192.0.2.2", "--verify", "127.0.0.1"], "sanehosts fleet status"),
      (["--target", "bind", "--transfer-to", "primary.lan"], "not “primary.lan”"),
    ] {
      let result = try await cli.runner.run(["apply"] + arguments + ["--data-dir", cli.directory.url.path])
      #expect(result.status == 64 && result.standardError.contains(message), "\(arguments): \(result.standardError)")
    }
  }

  @Test(
    "First apply writes the primary's configuration and says to include it; then the zone goes by update, read back once, and on to a real secondary",
    .timeLimit(.minutes(3)), .enabled(if: NetworkLab.isAvailable, "needs root and ip (iproute2) for network namespaces")
  )
  func primary() async throws {
    let names = (1...50).map { "tracker-\($0).website" }
    let fixture = try await ApplyFixture.make(names: names)
    defer { fixture.cli.remove() }
    let output = fixture.cli.directory.file("db.sanehosts.rpz")
    try await NetworkLab.with(hosts: 3) { lab in
      let (upstream, primaryHost, secondaryHost) = (lab.hosts[0], lab.hosts[1], lab.hosts[2])
      let apply = [
        "apply", "--target", "bind", "--output", output.path, "--transfer-to", secondaryHost.address,
        "--primary-address", primaryHost.address,
      ]
      let first = try await fixture.cli.runner.run(apply)
      let configuration = output.path + ".primary.conf"
      #expect(first.status == 1, "\(first.standardError)")
      #expect(first.standardError.contains("include \"\(configuration)\";"), "\(first.standardError)")
      // BIND is not running yet: the primary cannot be reached, and nothing says "reload".
      #expect(first.standardError.contains("cannot be reached"), "\(first.standardError)")
      #expect(first.standardError.contains("could not be sent to the primary \(primaryHost.address):53"))
      #expect(!first.standardError.contains("--reload"), "\(first.standardError)")
      let attributes = try FileManager.default.attributesOfItem(atPath: configuration)
      #expect((attributes[.posixPermissions] as? Int) == 0o640)
      #expect(FileManager.default.fileExists(atPath: output.path + ".primary"))
      let directory = fixture.cli.directory.url
      try await DNSServerProcess.withLabUpstream(in: upstream, of: lab, directory: directory) { _ in
        try await DNSServerProcess.withLabPrimary(
          including: URL(fileURLWithPath: configuration), in: primaryHost, of: lab, directory: directory
        ) { primary in
          let secondary = SecondaryConfiguration(
            kind: .unbound, primary: try ServerAddress(parsing: primaryHost.address),
            copyFile: directory.appending(path: "copy.rpz").path)
          try await DNSServerProcess.withLabSecondary(
            secondary, upstream: upstream.address, in: secondaryHost, of: lab, directory: directory
          ) { server in
            let second = try await fixture.cli.runner.run(apply)
            #expect(second.status == 0, "\(second.standardError)\n\(primary.log())")
            #expect(
              second.standardError.contains(
                "the primary already held the profile (its zone read back first): it answers serial"))
            try await server.until("tracker-1.website", is: "NXDOMAIN")

            try Data((names.dropFirst(5) + ["fresh.website"]).joined(separator: "\n").utf8).write(to: fixture.list)
            try await fixture.cli.ok("update", "--quiet")
            let third = try await fixture.cli.runner.run(apply)
            #expect(third.status == 0, "\(third.standardError)")
            #expect(
              third.standardError.contains(
                "sent 10 records removed and 2 added to the primary as 1 update: it answers serial"),
              "\(third.standardError)")
            try await server.until("fresh.website", is: "NXDOMAIN")
            try await server.until("tracker-2.website", is: "NOERROR")
          }
        }
      }
    }
  }
}
