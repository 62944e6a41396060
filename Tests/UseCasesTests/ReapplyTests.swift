import Apply
import Blocklists
import DNS
import Foundation
import Store
import TestSupport
import Testing

@testable import UseCases

@Suite("Applying again everywhere, the way each place was applied (Reapply)")
struct ReapplyTests {
  @Test("Each file is applied again with its recorded options; one applied before they were recorded is named")
  func recordedOptions() async throws {
    let updated = try UpdatedStore()
    defer { updated.remove() }
    try updated.add("0.0.0.0 ads.website\n0.0.0.0 tracker.website\n", key: "ads")
    try await updated.update()
    let hosts = updated.directory.file("hosts")
    try Data("127.0.0.1 localhost\n".utf8).write(to: hosts)
    let file = ApplyDestination.file(for: .hosts, hostsFile: hosts.path, data: updated.store.directory)
    _ = try await ApplyRun(
      store: updated.store, file: file, target: .hosts,
      options: Applier.Options(address: .both, namesPerLine: 2, dryRun: false), verify: nil
    ).run()
    let ledger = Ledger(url: updated.store.directory.ledger)
    let recipe = try #require(ledger.entry(for: hosts.path)?.recipe)
    #expect(recipe.options.address == .both && recipe.options.namesPerLine == 2 && !recipe.verify)

    // A drop-in written before recipes were kept: its entry has none.
    let dropIn = updated.directory.file("u.conf")
    let unboundFile = ApplyDestination.file(
      for: .server(.unbound), hostsFile: "/nonexistent", output: dropIn.path, data: updated.store.directory)
    _ = try await ApplyRun(
      store: updated.store, file: unboundFile, target: .server(.unbound),
      options: Applier.Options(server: .unbound, check: false), verify: nil
    ).run()
    var entry = try #require(ledger.entry(for: dropIn.path))
    entry.recipe = nil
    try ledger.record(entry, for: dropIn.path)

    try updated.store.addRule("=tracker.website", action: .allow)
    let outcome = await Reapply(store: updated.store).run()
    #expect(outcome.places.count == 2)
    let hostsPlace = try #require(outcome.places.first { $0.target == "hosts" })
    #expect(!hostsPlace.failed && hostsPlace.line.hasPrefix("1 name, "), "\(hostsPlace.line)")
    let text = try String(contentsOf: hosts, encoding: .utf8)
    #expect(text.contains("0.0.0.0 ads.website\n:: ads.website"), "both addresses, as recorded: \(text)")
    let old = try #require(outcome.places.first { $0.target == "unbound" })
    #expect(old.failed && old.line.contains("apply it once more by hand"))
    #expect(!outcome.succeeded)

    // Only the places holding the profiles asked for.
    #expect(await Reapply(store: updated.store, profiles: ["other"]).run().places.isEmpty)
  }

  @Test(
    "Regression: an apply nothing can verify (a hosts file the system resolver does not read) is recorded unverified and reapplied without failing (it failed every reapply, retried every minute for ever)"
  )
  func unverifiableIsNotAFailure() async throws {
    let updated = try UpdatedStore()
    defer { updated.remove() }
    try updated.add("0.0.0.0 ads.website\n", key: "ads")
    try await updated.update()
    let hosts = updated.directory.file("hosts")
    try Data("127.0.0.1 localhost\n".utf8).write(to: hosts)
    let file = ApplyDestination.file(for: .hosts, hostsFile: hosts.path, data: updated.store.directory)
    let applied = try await ApplyRun(
      store: updated.store, file: file, target: .hosts, options: Applier.Options(), verify: ApplyRun.Verify(server: nil)
    ).run()
    #expect(applied.notVerified?.contains("the system resolver reads /etc/hosts") == true)
    let recipe = try #require(Ledger(url: updated.store.directory.ledger).entry(for: hosts.path)?.recipe)
    #expect(!recipe.verify, "a verification that cannot happen is not recorded")
    // A ledger written before: verify recorded; the reapply says it cannot verify, and does not fail.
    let ledger = Ledger(url: updated.store.directory.ledger)
    var entry = try #require(ledger.entry(for: hosts.path))
    entry.recipe?.verify = true
    try ledger.record(entry, for: hosts.path)
    let outcome = await Reapply(store: updated.store).run()
    let place = try #require(outcome.places.first)
    #expect(!place.failed && outcome.succeeded, "\(place.line)")
    #expect(place.line.contains("not verified: the system resolver reads /etc/hosts"), "\(place.line)")
  }

  @Test("The recipe is kept as JSON the ledger reads back: reload methods, addresses, the primary")
  func recipeRoundTrip() throws {
    let options = Applier.Options(
      profile: "p", server: .bind, address: .custom("192.0.2.1"), dryRun: true, force: true,
      reload: .firstOf([.rndc(zone: nil), .signal(pid: 4, program: "named")]),
      primary: PrimarySetup(
        address: try .init(parsing: "127.0.0.1:5353"), secondaries: [try .init(parsing: "[2001:db8::1]:53")],
        signTransfers: true))
    let recipe = Ledger.Recipe(options: options, verify: true, verifyServer: try .init(parsing: "10.0.0.1"))
    #expect(!recipe.options.dryRun && !recipe.options.force, "a reapply never dry-runs or forces")
    let data = try JSONEncoder().encode(recipe)
    #expect(try JSONDecoder().decode(Ledger.Recipe.self, from: data) == recipe)
  }

  @Test("A requested apply (the dashboard may not write the file) is done first, once, and then kept in the ledger")
  func requested() async throws {
    let updated = try UpdatedStore()
    defer { updated.remove() }
    try updated.add("0.0.0.0 ads.website\n", key: "ads")
    try await updated.update()
    let hosts = updated.directory.file("hosts")
    try Data("127.0.0.1 localhost\n".utf8).write(to: hosts)
    let data = updated.store.directory
    try ApplyRequest.submit(
      ApplyRequest(target: "hosts", path: hosts.path, profile: nil, verifyServer: nil), in: data)
    try ApplyRequest.submit(
      ApplyRequest(target: "hosts", path: hosts.path, profile: "default", verifyServer: nil), in: data)
    #expect(ApplyRequest.read(in: data).count == 1, "one request per path: the newest")
    // A run for another profile (an allow rule of it ended) still does the request it takes.
    let outcome = await Reapply(store: updated.store, profiles: ["other"]).run()
    let place = try #require(outcome.places.first)
    #expect(outcome.places.count == 1 && !place.failed, "\(outcome.places)")
    #expect(place.line.hasPrefix("requested: 1 name, +1 −0"), "\(place.line)")
    #expect(try String(contentsOf: hosts, encoding: .utf8).contains("0.0.0.0 ads.website"))
    #expect(ApplyRequest.read(in: data).isEmpty, "taken")
    #expect(Ledger(url: data.ledger).entry(for: hosts.path)?.recipe != nil, "later reapplies do it again")
    let again = await Reapply(store: updated.store).run()
    #expect(again.places.map(\.line) == ["1 name, +0 −0"], "\(again.places)")
  }
}
