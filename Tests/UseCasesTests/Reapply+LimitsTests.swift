import Apply
import Blocklists
import Foundation
import Store
import TestSupport
import Testing

@testable import UseCases

@Suite("What root takes from a store another user can write (Reapply.Limits)")
struct ReapplyLimitsTests {
  static func recipe(_ options: Applier.Options = Applier.Options()) -> Ledger.Recipe {
    Ledger.Recipe(options: options, verify: false, verifyServer: nil)
  }

  @Test("Root on another user's store: only /etc/hosts, each server's default drop-in and the administrator's places")
  func places() throws {
    let limits = Reapply.Limits.administrators(
      "dnsmasq:/srv/dns/sanehosts.conf hosts:/srv/hosts bogus:/x hosts:relative")
    #expect(limits.refusal(target: .hosts, path: "/etc/hosts", recipe: Self.recipe()) == nil)
    #expect(
      limits.refusal(
        target: .server(.dnsmasq), path: ServerTarget.dnsmasq.defaultOutput,
        recipe: Self.recipe(Applier.Options(server: .dnsmasq, reload: ServerTarget.dnsmasq.defaultReload()))) == nil)
    #expect(limits.refusal(target: .server(.dnsmasq), path: "/srv/dns/sanehosts.conf", recipe: Self.recipe()) == nil)
    #expect(limits.refusal(target: .hosts, path: "/srv/hosts", recipe: Self.recipe()) == nil)
    // Another file, or an allowed file as another target, is refused.
    #expect(
      limits.refusal(target: .hosts, path: "/etc/cron.d/x", recipe: Self.recipe())?.contains("not a place") == true)
    #expect(limits.refusal(target: .hosts, path: ServerTarget.unbound.defaultOutput, recipe: Self.recipe()) != nil)
    #expect(limits.refusal(target: .hosts, path: "/x", recipe: Self.recipe()) != nil, "an unknown target is left out")
    // A reload that is not the server's own: a signal to any process, another unit.
    let signal = Self.recipe(Applier.Options(server: .dnsmasq, reload: .signal(pid: 1, program: "dnsmasq")))
    #expect(
      limits.refusal(target: .server(.dnsmasq), path: ServerTarget.dnsmasq.defaultOutput, recipe: signal)?.contains(
        "not dnsmasq's own") == true)
    // An address that is not one: lines injected into /etc/hosts.
    let injected = Self.recipe(Applier.Options(address: .custom("0.0.0.0\n203.0.113.9 bank.example")))
    #expect(limits.refusal(target: .hosts, path: "/etc/hosts", recipe: injected)?.contains("not an IP address") == true)
    #expect(
      limits.refusal(target: .hosts, path: "/etc/hosts", recipe: Self.recipe(Applier.Options(address: .custom("::1"))))
        == nil)
    #expect(Reapply.Limits.none.refusal(target: .hosts, path: "/etc/cron.d/x", recipe: Self.recipe()) == nil)
  }

  @Test("A symbolic link among the allowed places is refused")
  func symlink() async throws {
    try await TemporaryDirectory.with { directory in
      let link = directory.file("hosts")
      try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "/etc/passwd")
      let limits = Reapply.Limits(places: [Reapply.Limits.Place(target: "hosts", path: link.path)])
      // Allowed by its resolved path, refused as a link.
      #expect(limits.refusal(target: .hosts, path: link.path, recipe: Self.recipe())?.contains("symbolic link") == true)
    }
  }

  @Test("Limits apply only to root on a data directory another user owns")
  func forProcess() async throws {
    try await TemporaryDirectory.with { directory in
      let data = DataDirectory(url: directory.url)
      #expect(Reapply.Limits.forProcess(data: data, euid: 1000).places == nil, "not root")
      #expect(Reapply.Limits.forProcess(data: data, euid: 0).places == nil, "root's own store")
      try FileManager.default.setAttributes([.ownerAccountID: 65534], ofItemAtPath: directory.url.path)
      let limited = Reapply.Limits.forProcess(
        data: data, environment: ["SANEHOSTS_APPLY_PLACES": "hosts:/srv/h"], euid: 0)
      #expect(limited.places?.contains(.init(target: "hosts", path: "/srv/h")) == true)
      #expect(limited.places?.contains(.init(target: "hosts", path: "/etc/hosts")) == true)
    }
  }

  @Test("A tampered ledger and request: root applies neither, and says why; the allowed place is applied")
  func tampered() async throws {
    let updated = try UpdatedStore()
    defer { updated.remove() }
    try updated.add("0.0.0.0 ads.website\n", key: "ads")
    try await updated.update()
    let allowed = updated.directory.file("hosts")
    let victim = updated.directory.file("victim")
    try Data("127.0.0.1 localhost\n".utf8).write(to: allowed)
    try Data("root:x:0:0::/root:/bin/sh\n".utf8).write(to: victim)
    let data = updated.store.directory
    try ApplyRequest.submit(ApplyRequest(target: "hosts", path: victim.path, profile: nil, verifyServer: nil), in: data)
    try ApplyRequest.submit(
      ApplyRequest(target: "hosts", path: allowed.path, profile: nil, verifyServer: nil), in: data)
    let limits = Reapply.Limits(places: [Reapply.Limits.Place(target: "hosts", path: allowed.path)])
    let outcome = await Reapply(store: updated.store, limits: limits).run()
    let refused = try #require(outcome.places.first { $0.path == Ledger.key(victim.path) })
    #expect(refused.failed && refused.line.contains("not a place an administrator allowed"), "\(refused.line)")
    #expect(try String(contentsOf: victim, encoding: .utf8) == "root:x:0:0::/root:/bin/sh\n", "untouched")
    #expect(try String(contentsOf: allowed, encoding: .utf8).contains("0.0.0.0 ads.website"))
  }
}
