import Apply
import BlockerTest
import DNS
import Foundation
import Store
import TestSupport
import Testing

@testable import UseCases

@Suite("Allow rules for a while: ended on a fake clock, the profile applied again and verified", .serialized)
struct RuleExpiryTests {
  static let list = "0.0.0.0 ads.website\n0.0.0.0 tracker.website\n0.0.0.0 video.website\n"

  @Test(
    "Allowed for 1 hour: at 59 min it still lets the name through; at 60 min a real dnsmasq blocks it again, verified")
  func endsOnTheClock() async throws {
    let updated = try UpdatedStore()
    defer { updated.remove() }
    try updated.add(Self.list, key: "ads")
    try await updated.update()
    let base = Date(timeIntervalSince1970: 1_800_000_000)
    try updated.store.addRule("ads.website", action: .allow, expiresAt: base.addingTimeInterval(3600))
    let dropIn = updated.directory.file("sanehosts.servers")
    FileManager.default.createFile(atPath: dropIn.path, contents: Data())
    // A real upstream: the listed names and the control domains resolve, so an answer is the server's own.
    let zone =
      "$TTL 60\n@ IN SOA ns admin 1 60 60 600 60\n@ IN NS ns\nns IN A 127.0.0.1\n* IN A \(DNSServerProcess.catchAllV4)\n"
    try await DNSServerProcess.withAuthoritative(
      origin: "website", zoneText: zone, moreZones: DNSServerProcess.controlZones, directory: updated.directory.url
    ) { upstream in
      try await DNSServerProcess.withDnsmasq(
        arguments: ["--servers-file=\(dropIn.path)", "--server=127.0.0.1#\(upstream.port)"],
        directory: updated.directory.url
      ) { server in
        let address = try ServerAddress(parsing: "127.0.0.1:\(server.port)")
        let dig = try Dig(port: server.port)
        let file = ApplyDestination.file(
          for: .server(.dnsmasq), hostsFile: "/nonexistent", output: dropIn.path, data: updated.store.directory)
        let first = try await ApplyRun(
          store: updated.store, file: file, target: .server(.dnsmasq),
          options: Applier.Options(
            server: .dnsmasq, check: false, reload: .signal(pid: server.pid, program: "dnsmasq")),
          verify: ApplyRun.Verify(server: address, sample: 10, timeout: .seconds(5))
        ).run()
        #expect(first.verification?.passed == true, "\(first.verification?.summary ?? "") \(server.log())")
        #expect(try await dig.query("ads.website") == [DNSServerProcess.catchAllV4], "allowed for now")
        #expect(try await dig.status("tracker.website") == "NXDOMAIN")

        let clock = ManualClock()
        let now: @Sendable () -> Date = { base.addingTimeInterval(Double(clock.now.offset.components.seconds)) }
        let (reports, continuation) = AsyncStream.makeStream(of: RuleExpiry.Outcome.self)
        let watcher = ExpiryWatcher(
          expiry: RuleExpiry(store: updated.store), clock: clock, now: now, report: { continuation.yield($0) })
        try await withThrowingTaskGroup(of: Void.self) { group in
          group.addTask { await watcher.run() }
          #expect(await clock.waitForSleepers(1))
          #expect(await watcher.state == .waiting(until: base.addingTimeInterval(60)), "the next look: a minute")
          clock.advance(by: .seconds(59 * 60))
          #expect(await clock.waitForSleepers(1))
          #expect(try updated.store.rules(action: .allow).count == 1, "59 minutes: not yet")
          #expect(await watcher.state == .waiting(until: base.addingTimeInterval(3600)), "sleeps to the end exactly")
          #expect(try await dig.query("ads.website") == [DNSServerProcess.catchAllV4])

          clock.advance(by: .seconds(60))
          var iterator = reports.makeAsyncIterator()
          let outcome = try #require(await iterator.next())
          #expect(outcome.ended.map(\.rule) == ["ads.website"])
          #expect(outcome.profiles == ["default"])
          let place = try #require(outcome.reapply?.places.first)
          #expect(outcome.succeeded, "\(place.line)")
          #expect(place.target == "dnsmasq" && place.path == Ledger.key(dropIn.path))
          #expect(place.line.contains("+1 −0"), "\(place.line)")
          #expect(place.line.contains("verified:"), "verified as the first apply was: \(place.line)")
          #expect(try updated.store.rules(action: .allow).isEmpty)
          // The real server's answer, not the model: blocked again.
          #expect(try await dig.status("ads.website") == "NXDOMAIN", "\(server.log())")
          #expect(!FileManager.default.fileExists(atPath: updated.store.directory.file("reapply.pending").path))
          group.cancelAll()
        }
        #expect(await watcher.state == .stopped)
      }
    }
  }

  @Test("A reapply that fails is remembered and tried again by the next run, until it succeeds")
  func failedReapplyIsRetried() async throws {
    let updated = try UpdatedStore()
    defer { updated.remove() }
    try updated.add(Self.list, key: "ads")
    try await updated.update()
    let hosts = updated.directory.file("hosts")
    try Data("127.0.0.1 localhost\n".utf8).write(to: hosts)
    let file = ApplyDestination.file(for: .hosts, hostsFile: hosts.path, data: updated.store.directory)
    // Whole seconds: the pending file keeps its times to the second.
    let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
    try updated.store.addRule("=video.website", action: .allow, expiresAt: now.addingTimeInterval(60))
    _ = try await ApplyRun(store: updated.store, file: file, target: .hosts, options: Applier.Options(), verify: nil)
      .run()
    #expect(!(try String(contentsOf: hosts, encoding: .utf8).contains("video.website")))
    // A folder where the hosts file was: the write fails, for root too.
    let written = try Data(contentsOf: hosts)
    try FileManager.default.removeItem(at: hosts)
    try FileManager.default.createDirectory(at: hosts, withIntermediateDirectories: false)
    let expiry = RuleExpiry(store: updated.store)
    let failed = try await expiry.run(now: now.addingTimeInterval(61))
    #expect(failed.ended.map(\.rule) == ["=video.website"])
    #expect(!failed.succeeded, "\(failed.reapply?.places.map(\.line) ?? [])")
    #expect(expiry.pending() == ["default"])
    let recorded = try #require(PendingReapply.all(in: updated.store.directory).first)
    #expect(recorded.attempts == 1 && recorded.reason.contains(hosts.path), "\(recorded)")
    #expect(failed.pending == [recorded])

    // Regression: a failing reapply was retried (a server reloaded and asked) every minute for ever.
    // Not due yet: nothing runs; then once, a minute later; then it waits twice as long.
    let early = try await expiry.run(now: now.addingTimeInterval(62))
    #expect(early.reapply == nil && early.profiles.isEmpty)
    let nothingNew = try await expiry.run(now: now.addingTimeInterval(121))
    #expect(nothingNew.ended.isEmpty && nothingNew.profiles == ["default"], "the pending profile is tried again")
    #expect(!nothingNew.succeeded)
    let again = try #require(PendingReapply.all(in: updated.store.directory).first)
    #expect(again.attempts == 2 && again.since == recorded.since)
    #expect(again.nextTry == now.addingTimeInterval(121 + 120))
    #expect(PendingReapply.backoff(after: 7) == 3600 && PendingReapply.backoff(after: 50) == 3600)

    try FileManager.default.removeItem(at: hosts)
    try written.write(to: hosts)
    let retried = try await expiry.run(now: now.addingTimeInterval(241))
    #expect(retried.succeeded, "\(retried.reapply?.places.map(\.line) ?? [])")
    #expect(try String(contentsOf: hosts, encoding: .utf8).contains("0.0.0.0 video.website"))
    #expect(expiry.pending().isEmpty)
    let idle = try await expiry.run(now: now.addingTimeInterval(242))
    #expect(idle.reapply == nil && idle.profiles.isEmpty, "nothing ended, nothing pending: nothing applied")
  }
}
