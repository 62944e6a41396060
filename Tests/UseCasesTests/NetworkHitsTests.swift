import Apply
import Foundation
import TestSupport
import Testing
import Traffic

@testable import UseCases

@Suite("Hits per list: the request")
struct NetworkHitsTests {
  static let now = Date(timeIntervalSince1970: 1_795_800_000)

  @Test("--since: a duration back from now, a date (local) or a date and time; anything else a named error")
  func since() throws {
    #expect(try NetworkHits.since("24h", now: Self.now) == Self.now.addingTimeInterval(-86_400))
    #expect(try NetworkHits.since("90m", now: Self.now) == Self.now.addingTimeInterval(-5_400))
    #expect(try NetworkHits.since("2w", now: Self.now) == Self.now.addingTimeInterval(-1_209_600))
    #expect(try NetworkHits.since("2026-11-20T08:00Z", now: Self.now) == Date(timeIntervalSince1970: 1_795_161_600))
    #expect(throws: Never.self) { try NetworkHits.since("2026-11-20", now: Self.now) }
    for bad in ["yesterday", "-3h", "2026-13-01", ""] {
      #expect(throws: TrafficError.badSince(bad)) { try NetworkHits.since(bad, now: Self.now) }
    }
  }

  @Test("What blocked means: the target asked, else the first log's server's")
  func target() {
    let logs = [LogSource(kind: .unbound, path: "/u.log"), LogSource(kind: .dnsmasq, path: "/d.log")]
    #expect(NetworkHits.Request(logs: logs).effectiveTarget.name == "unbound")
    #expect(
      NetworkHits.Request(logs: logs, target: Target(name: "dnsmasq-hosts")).effectiveTarget.name == "dnsmasq-hosts")
    #expect(NetworkHits.Request(logs: []).effectiveTarget.name == "hosts")
  }

  @Test("The profile applied to the log's server, from the ledger: one profile and target, else none")
  func applied() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let ledger = Ledger(url: directory.file("ledger.json"))
    #expect(NetworkHits.applied(to: .dnsmasq, ledger: ledger) == nil)
    func entry(_ profile: String, _ target: String) -> Ledger.Entry {
      Ledger.Entry(sha256: "", sectionSHA256: "", date: Date(), profile: profile, names: 1, target: target)
    }
    try ledger.record(entry("home", "dnsmasq-hosts"), for: "/etc/dnsmasq.d/a.hosts")
    try ledger.record(entry("kids", "unbound"), for: "/etc/unbound/b.conf")
    let found = NetworkHits.applied(to: .dnsmasq, ledger: ledger)
    #expect(found?.profile == "home" && found?.target.name == "dnsmasq-hosts")
    #expect(NetworkHits.applied(to: .unbound, ledger: ledger)?.profile == "kids")
    #expect(NetworkHits.applied(to: .bind, ledger: ledger) == nil)
    try ledger.record(entry("work", "dnsmasq"), for: "/etc/dnsmasq.d/c.conf")
    #expect(NetworkHits.applied(to: .dnsmasq, ledger: ledger) == nil, "two profiles: the active one decides")
  }
}
