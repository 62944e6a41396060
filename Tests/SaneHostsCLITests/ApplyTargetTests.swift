import Apply
import Foundation
import TestSupport
import Testing

/// `sanehosts apply --target …` end to end: the CLI writes the drop-in, a real server started by the
/// test loads it and answers.
@Suite("sanehosts apply --target (real DNS servers)", .serialized)
struct ApplyTargetTests {
  @Test(
    "dnsmasq-hosts: blocked names answer 0.0.0.0 and ::; --reload --reload-pid makes dnsmasq take a new name at once")
  func dnsmasqHostsWithReload() async throws {
    let fixture = try await ApplyFixture.make(names: ["ads.website", "tracker.website"])
    defer { fixture.cli.remove() }
    let dropIn = fixture.cli.directory.file("sanehosts.hosts")
    try await fixture.cli.ok("apply", "--target", "dnsmasq-hosts", "--output", dropIn.path)
    try await DNSServerProcess.withDnsmasq(
      arguments: ["--addn-hosts=\(dropIn.path)", "--address=/allowed.blog/192.0.2.7"],
      directory: fixture.cli.directory.url
    ) { server in
      let dig = try Dig(port: server.port)
      #expect(try await dig.query("ads.website") == ["0.0.0.0"])
      #expect(try await dig.query("ads.website", "AAAA") == ["::"])
      #expect(try await dig.query("allowed.blog") == ["192.0.2.7"])
      #expect(try await dig.query("new.website").isEmpty)
      try await fixture.cli.ok("deny", "add", "=new.website")
      let result = try await fixture.cli.run(
        "apply", "--target", "dnsmasq-hosts", "--output", dropIn.path, "--reload", "--reload-pid", "\(server.pid)")
      #expect(result.status == 0, "\(result.standardError)")
      #expect(result.standardError.contains("Reload:"), "\(result.standardError)")
      #expect(await eventually { (try? await dig.query("new.website")) == ["0.0.0.0"] }, "\(server.log())")
    }
  }

  @Test("dnsmasq: the conf-file drop-in blocks names and their subdomains; the checker ran")
  func dnsmasqConf() async throws {
    let fixture = try await ApplyFixture.make(names: ["ads.website"])
    defer { fixture.cli.remove() }
    let dropIn = fixture.cli.directory.file("dnsmasq.d/sanehosts.conf")
    let result = try await fixture.cli.run("apply", "--target", "dnsmasq", "--output", dropIn.path)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardError.contains("Check: dnsmasq"), "\(result.standardError)")
    #expect(result.standardError.contains("To load it"), "\(result.standardError)")
    // Applying the same names again writes nothing, although the header's date would differ.
    let again = try await fixture.cli.run("apply", "--target", "dnsmasq", "--output", dropIn.path)
    #expect(again.standardError.contains("nothing to write"), "\(again.standardError)")
    // Loaded as a servers-file (the instructions say so) and, the same lines, as configuration.
    for option in ["--servers-file", "--conf-file"] {
      try await DNSServerProcess.withDnsmasq(
        arguments: ["\(option)=\(dropIn.path)"], directory: fixture.cli.directory.url
      ) { server in
        let dig = try Dig(port: server.port)
        #expect(try await dig.status("ads.website") == "NXDOMAIN")
        #expect(try await dig.status("deep.sub.ads.website") == "NXDOMAIN")
        #expect(try await dig.status("ads.website", "AAAA") == "NXDOMAIN")
        #expect(try await dig.status("ads.website", "HTTPS") == "NXDOMAIN")
      }
    }
    // disable --target removes the drop-in, after a backup restore can bring back.
    try await fixture.cli.ok("disable", "--target", "dnsmasq", "--output", dropIn.path)
    #expect(!FileManager.default.fileExists(atPath: dropIn.path))
    try await fixture.cli.ok("restore", "--hosts-file", dropIn.path)
    #expect(try String(contentsOf: dropIn, encoding: .utf8).contains("server=/ads.website/"))
  }

  @Test("unbound: local-zone always_null for names and subdomains; other local data still answers")
  func unbound() async throws {
    let fixture = try await ApplyFixture.make(names: ["ads.website", "tracker.website"])
    defer { fixture.cli.remove() }
    let dropIn = fixture.cli.directory.file("sanehosts.conf")
    try await fixture.cli.ok("apply", "--target", "unbound", "--output", dropIn.path)
    try await DNSServerProcess.withUnbound(
      serverLines: ["local-data: \"allowed.blog. A 192.0.2.7\"", "include: \"\(dropIn.path)\""],
      directory: fixture.cli.directory.url
    ) { server in
      let dig = try Dig(port: server.port)
      #expect(try await dig.query("tracker.website") == ["0.0.0.0"])
      #expect(try await dig.query("x.ads.website", "AAAA") == ["::"])
      #expect(try await dig.query("allowed.blog") == ["192.0.2.7"])
    }
  }

  @Test("bind: named-checkzone accepts the zone; a dry run writes nothing; --flush and --output do not mix")
  func bindAndValidation() async throws {
    let fixture = try await ApplyFixture.make(names: ["ads.website"])
    defer { fixture.cli.remove() }
    let zone = fixture.cli.directory.file("db.sanehosts.rpz")
    let dry = try await fixture.cli.run("apply", "--target", "bind", "--output", zone.path, "--dry-run")
    #expect(dry.status == 0)
    #expect(!FileManager.default.fileExists(atPath: zone.path))
    let result = try await fixture.cli.run("apply", "--target", "bind", "--output", zone.path)
    #expect(result.standardError.contains("Check: named-checkzone accepted the file."), "\(result.standardError)")
    let text = try String(contentsOf: zone, encoding: .utf8)
    #expect(text.contains("ads.website CNAME .\n") && text.contains("*.ads.website CNAME .\n"))
    let mixed = try await fixture.cli.run("apply", "--output", zone.path)
    #expect(mixed.status != 0 && mixed.standardError.contains("--output is for a DNS server target"))
  }

  @Test("apply --flush: a running dnsmasq that reads the hosts file is sent SIGHUP and answers from the new file")
  func flushReachesDnsmasq() async throws {
    let fixture = try await ApplyFixture.make(names: ["ads.website"])
    defer { fixture.cli.remove() }
    try Data("10.0.0.5 printer.lan\n".utf8).write(to: fixture.hosts)
    try await DNSServerProcess.withDnsmasq(
      arguments: ["--addn-hosts=\(fixture.hosts.path)"], directory: fixture.cli.directory.url
    ) { server in
      let dig = try Dig(port: server.port)
      #expect(try await dig.query("printer.lan") == ["10.0.0.5"])
      #expect(try await dig.query("ads.website").isEmpty)
      let result = try await fixture.cli.run("apply", "--hosts-file", fixture.hosts.path, "--flush")
      #expect(result.status == 0, "\(result.standardError)")
      #expect(result.standardError.contains("dnsmasq (pid \(server.pid), SIGHUP)"), "\(result.standardError)")
      #expect(await eventually { (try? await dig.query("ads.website")) == ["0.0.0.0"] }, "\(server.log())")
      #expect(try await dig.query("printer.lan") == ["10.0.0.5"])
    }
  }

  @Test("PowerDNS Recursor and Knot Resolver stop on SIGHUP: --reload-pid is refused with the way that works")
  func noSignalReload() async throws {
    let cli = try StoreCLI()
    defer { cli.remove() }
    for (target, server) in [("knot-resolver", "Knot Resolver"), ("pdns-recursor", "PowerDNS Recursor")] {
      let result = try await cli.run(
        "apply", "--target", target, "--output", cli.directory.file("z.rpz").path, "--reload", "--reload-pid", "1")
      #expect(result.status != 0)
      #expect(result.standardError.contains("\(server) stops on SIGHUP"), "\(result.standardError)")
    }
    let socket = try await cli.run("apply", "--target", "bind", "--reload", "--reload-socket", "/run/x")
    #expect(socket.standardError.contains("--reload-socket is for --target pdns-recursor or knot-resolver"))
  }
}
