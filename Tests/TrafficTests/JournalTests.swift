import Foundation
import Testing

@testable import Traffic

@Suite("The systemd journal: entries as the servers' own lines, journalctl's arguments")
struct JournalTests {
  static let micros = "1795879528632203"
  static let stamp = "2026-11-28T15:25:28.632Z"

  /// A `journalctl -o json` line with `message` (JSON text of the value) and the fields given.
  static func json(_ message: String, pid: String? = "77", extra: String = "") -> String {
    var fields = [#""__CURSOR":"s=1;i=2""#, #""MESSAGE":\#(message)"#, #""__REALTIME_TIMESTAMP":"\#(micros)""#]
    if let pid { fields.append(#""_PID":"\#(pid)""#) }
    if !extra.isEmpty { fields.append(extra) }
    return "{" + fields.joined(separator: ",") + "}"
  }

  @Test("dnsmasq through syslog and through standard error; unbound through syslog and standard error; BIND")
  func lines() {
    let stamp = Self.stamp
    #expect(
      Journal.line(json: Self.json(#""query[A] ads.website from 10.0.0.2""#), kind: .dnsmasq)
        == "\(stamp) dnsmasq[77]: query[A] ads.website from 10.0.0.2")
    #expect(
      Journal.line(json: Self.json(#""dnsmasq[9]: config ads.website is NXDOMAIN""#), kind: .dnsmasq)
        == "\(stamp) dnsmasq[9]: config ads.website is NXDOMAIN")
    #expect(
      Journal.line(json: Self.json(#""[1234:0] info: 127.0.0.1 ads.website. A IN""#), kind: .unbound)
        == "\(stamp) unbound[1234:0] info: 127.0.0.1 ads.website. A IN")
    let own = "[1764221440] unbound[1:0] info: 127.0.0.1 ads.website. A IN"
    #expect(Journal.line(json: Self.json("\"\(own)\""), kind: .unbound) == own, "unbound's own line, its own time")
    #expect(
      Journal.line(json: Self.json(#""info: x""#, pid: nil, extra: #""SYSLOG_PID":"5""#), kind: .unbound)
        == "\(stamp) unbound[5:0] info: x")
    let bind = #""client @0x1 10.0.0.2#5353 (ads.website): query: ads.website IN A +E(0) (10.0.0.1)""#
    #expect(Journal.line(json: Self.json(bind), kind: .bind)?.hasPrefix("\(stamp) client @0x1 ") == true)
  }

  @Test("JSON as journald writes it: escapes, a message kept as bytes, null, fields in any order")
  func scanner() {
    // journald gives a message that is not UTF-8 as an array of byte values.
    let bytes = Array("query[A] caf\u{e9}.website".utf8).map(String.init).joined(separator: ",")
    #expect(Journal.line(json: Self.json("[\(bytes)]"), kind: .dnsmasq)?.hasSuffix("query[A] café.website") == true)
    #expect(
      Journal.line(json: Self.json(#""a \"quoted\" \\ tab\there \u00e9 \ud83d\ude00""#), kind: .bind)
        == "\(Self.stamp) a \"quoted\" \\ tab\there é 😀")
    #expect(
      Journal.line(json: Self.json(#""x""#, extra: #""HUGE":null, "LIST":[1,2,3], "N":12"#), kind: .bind)
        == "\(Self.stamp) x")
    let reordered = #"{"_PID":"3", "MESSAGE" : "m", "__REALTIME_TIMESTAMP":"\#(Self.micros)"}"#
    #expect(Journal.line(json: reordered, kind: .dnsmasq) == "\(Self.stamp) dnsmasq[3]: m")
    for broken in [
      "", "{}", "not json", #"{"MESSAGE":"x"}"#, #"{"__REALTIME_TIMESTAMP":"1"}"#, #"{"MESSAGE":"x","#,
      #"{"MESSAGE":[300],"__REALTIME_TIMESTAMP":"1"}"#, #"{"MESSAGE":"\u12"}"#,
    ] {
      #expect(Journal.line(json: broken, kind: .dnsmasq) == nil, "\(broken)")
    }
  }

  @Test("The parsers read the lines made from entries")
  func parsed() throws {
    var parser = QueryLogFormat.dnsmasq.parser()
    var clock = LogClock()
    var findings = LogFindings()
    var events: [LogEvent] = []
    let line = try #require(Journal.line(json: Self.json(#""query[A] ads.website from 10.0.0.2""#), kind: .dnsmasq))
    Array(line.utf8).withUnsafeBufferPointer {
      parser.parse($0, number: 1, file: "journal", clock: &clock, findings: &findings) { events.append($0) }
    }
    #expect(events.count == 1, "\(findings)")
    if case .query(let time, let name, _, _) = events.first {
      #expect(name == "ads.website" && time == Date(timeIntervalSince1970: 1_795_879_528.632))
    }
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
