import Foundation
import Testing

@testable import Traffic

@Suite("The systemd journal: entries as the servers' own lines, journalctl's arguments")
struct JournalTests {
  static let micros = "1795879528632203"

  @Test("dnsmasq through syslog and through standard error; unbound through syslog and standard error; BIND")
  func lines() {
    let stamp = Journal.stamp(Int64(Self.micros)!)
    #expect(stamp == "2026-11-28T15:25:28.632Z")
    func entry(_ message: Any, pid: String = "77") -> [String: Any] {
      ["MESSAGE": message, "__REALTIME_TIMESTAMP": Self.micros, "_PID": pid]
    }
    #expect(
      Journal.line(entry("query[A] ads.website from 10.0.0.2"), kind: .dnsmasq)
        == "\(stamp) dnsmasq[77]: query[A] ads.website from 10.0.0.2")
    #expect(
      Journal.line(entry("dnsmasq[9]: config ads.website is NXDOMAIN"), kind: .dnsmasq)
        == "\(stamp) dnsmasq[9]: config ads.website is NXDOMAIN")
    #expect(
      Journal.line(entry("[1234:0] info: 127.0.0.1 ads.website. A IN"), kind: .unbound)
        == "\(stamp) unbound[1234:0] info: 127.0.0.1 ads.website. A IN")
    let own = "[1764221440] unbound[1:0] info: 127.0.0.1 ads.website. A IN"
    #expect(Journal.line(entry(own), kind: .unbound) == own, "unbound's own stderr line, with its own time")
    #expect(
      Journal.line(
        entry("client @0x1 10.0.0.2#5353 (ads.website): query: ads.website IN A +E(0) (10.0.0.1)"), kind: .bind)?
        .hasPrefix("\(stamp) client @0x1 ") == true)
    // journald gives a message that is not UTF-8 as an array of bytes.
    let bytes: [Any] = Array("query[A] caf\u{e9}.website from 10.0.0.2".utf8).map { NSNumber(value: $0) }
    #expect(Journal.line(entry(bytes), kind: .dnsmasq)?.hasSuffix("query[A] café.website from 10.0.0.2") == true)
    #expect(Journal.line(["MESSAGE": "x"], kind: .dnsmasq) == nil, "no time: not a line")
    #expect(Journal.line(["__REALTIME_TIMESTAMP": Self.micros], kind: .dnsmasq) == nil, "no message")
  }

  @Test("The parsers read the lines made from entries")
  func parsed() {
    var parser = QueryLogFormat.dnsmasq.parser()
    var clock = LogClock()
    var findings = LogFindings()
    var events: [LogEvent] = []
    let entry: [String: Any] = [
      "MESSAGE": "query[A] ads.website from 10.0.0.2", "__REALTIME_TIMESTAMP": Self.micros, "_PID": "7",
    ]
    let line = Journal.line(entry, kind: .dnsmasq)!
    Array(line.utf8).withUnsafeBufferPointer {
      parser.parse($0, number: 1, file: "journal", clock: &clock, findings: &findings) { events.append($0) }
    }
    #expect(events.count == 1, "\(findings)")
  }

  @Test("journalctl's arguments: JSON, the identifier or the unit, a copied file, since, follow from the end")
  func arguments() throws {
    let plain = try LogSource(argument: "dnsmasq:journal")
    #expect(plain.isJournal && plain.journalUnit == nil)
    #expect(
      Journal.arguments(for: plain, since: nil, follow: false) == [
        "--output=json", "--no-pager", "--quiet", "--identifier=dnsmasq",
      ])
    var unit = try LogSource(argument: "bind:journal:named.service")
    unit.journalFile = "/tmp/copy.journal"
    #expect(unit.journalUnit == "named.service")
    #expect(
      Journal.arguments(for: unit, since: Date(timeIntervalSince1970: 1_800_000_000.7), follow: true) == [
        "--output=json", "--no-pager", "--quiet", "--file=/tmp/copy.journal", "--unit=named.service",
        "--since=@1800000000", "--follow", "--lines=0",
      ])
    #expect(
      Journal.arguments(for: try LogSource(argument: "unbound:journal"), since: nil, follow: false).last
        == "--identifier=unbound")
    #expect(!(try LogSource(argument: "dnsmasq:/var/log/journal.log")).isJournal)
  }
}
