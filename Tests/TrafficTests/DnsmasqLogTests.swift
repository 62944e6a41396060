import Foundation
import Testing

@testable import Traffic

/// Lines as dnsmasq 2.90 wrote them (Debian 12), `log-queries` and `log-queries=extra`.
@Suite("dnsmasq's query log")
struct DnsmasqLogTests {
  static let plain = """
    Nov 27 05:30:39 dnsmasq[21140]: started, version 2.90 cachesize 150
    Nov 27 05:30:39 dnsmasq[21140]: using only locally-known addresses for ads.website
    Nov 27 05:30:40 dnsmasq[21140]: query[A] plain.website from 127.0.0.1
    Nov 27 05:30:40 dnsmasq[21140]: forwarded plain.website to 127.0.0.1#15353
    Nov 27 05:30:40 dnsmasq[21140]: reply plain.website is 192.0.2.10
    Nov 27 05:30:41 dnsmasq[21140]: query[HTTPS] ads.website from 127.0.0.1
    Nov 27 05:30:41 dnsmasq[21140]: config ads.website is NXDOMAIN
    Nov 27 05:30:42 dnsmasq[21140]: query[A] sub.ads.website from 127.0.0.1
    Nov 27 05:30:42 dnsmasq[21140]: config sub.ads.website is NXDOMAIN
    Nov 27 05:30:43 dnsmasq[21140]: query[AAAA] nul.website from 127.0.0.1
    Nov 27 05:30:44 dnsmasq[21140]: config nul.website is ::
    Nov 27 05:30:44 dnsmasq[21140]: query[A] hosted.website from 127.0.0.1
    Nov 27 05:30:44 dnsmasq[21140]: /etc/dnsmasq.d/sanehosts.hosts hosted.website is 0.0.0.0
    Nov 27 05:30:45 dnsmasq[21140]: query[A] nas.lan from 127.0.0.1
    Nov 27 05:30:45 dnsmasq[21140]: config nas.lan is 192.168.1.5
    Nov 27 05:30:46 dnsmasq[21140]: query[A] cname.website from 127.0.0.1
    Nov 27 05:30:46 dnsmasq[21140]: reply cname.website is <CNAME>
    Nov 27 05:30:46 dnsmasq[21140]: reply target.website is 192.0.2.20
    """

  @Test("Queries, and blocks only where dnsmasq made the answer up; local data and CNAME targets are not blocks")
  func plainLog() {
    let (found, findings, tells) = events(Self.plain, parser: DnsmasqLog())
    #expect(
      summary(found) == [
        "query plain.website A 127.0.0.1", "query ads.website HTTPS 127.0.0.1", "blocked ads.website -",
        "query sub.ads.website A 127.0.0.1", "blocked sub.ads.website -", "query nul.website AAAA 127.0.0.1",
        "blocked nul.website -", "query hosted.website A 127.0.0.1", "blocked hosted.website -",
        "query nas.lan A 127.0.0.1", "query cname.website A 127.0.0.1",
      ])
    #expect(findings.skippedLines == 0)
    #expect(findings.otherLines == 7)
    #expect(tells)
    #expect(found.first?.time == Date(timeIntervalSince1970: 1_795_757_440))  // 2026-11-27 05:30:40 UTC
  }

  @Test("log-queries=extra: the client's address from the serial's field; a TCP child's pid is the same log")
  func extra() {
    let text = """
      Nov 27 05:31:05 dnsmasq[21947]: 34 127.0.0.2/56553 query[A] plain.website from 127.0.0.2
      Nov 27 05:31:05 dnsmasq[21947]: 34 127.0.0.2/56553 forwarded plain.website to 127.0.0.1#15353
      Nov 27 05:31:06 dnsmasq[21990]: 102 ::1/40983 query[A] ads.website from ::1
      Nov 27 05:31:06 dnsmasq[21990]: 102 ::1/40983 config ads.website is NXDOMAIN
      """
    let (found, findings, _) = events(text, parser: DnsmasqLog())
    #expect(
      summary(found) == [
        "query plain.website A 127.0.0.2", "query ads.website A ::1", "blocked ads.website ::1",
      ])
    #expect(findings.skippedLines == 0)
  }

  @Test("A syslog file: the host name before the tag, other programs' lines passed over")
  func syslog() {
    let text = """
      Nov 27 05:31:05 router dnsmasq[21947]: query[A] Plain.Website. from 10.0.0.2
      Nov 27 05:31:05 router kernel: [12.3] eth0: link up
      Nov 27 05:31:05 router dnsmasq-dhcp[21947]: DHCPACK(eth0) 10.0.0.2
      2026-11-27T05:31:06.123456+01:00 router dnsmasq[21947]: query[AAAA] a.website from 10.0.0.2
      """
    let (found, findings, _) = events(text, parser: DnsmasqLog())
    #expect(summary(found) == ["query plain.website A 10.0.0.2", "query a.website AAAA 10.0.0.2"])
    #expect(findings.otherLines == 2)
    #expect(abs((found.last?.time?.timeIntervalSince1970 ?? 0) - 1_795_753_866.123456) < 0.001)  // 04:31:06 UTC
  }

  @Test("Damaged lines are counted with their reason and skipped, never fatal")
  func damaged() {
    let text = """
      Nov 27 05:31:05 dnsmasq[1]: query[A] cut.website
      garbage without a time
      Nov 27 05:31:05
      Nov 27 05:31:05 dnsmasq[1]: config cut.website
      Nov 27 05:31:06 dnsmasq[1]: query[A] fine.website from 127.0.0.1
      """
    let (found, findings, _) = events(text, parser: DnsmasqLog())
    #expect(summary(found) == ["query fine.website A 127.0.0.1"])
    #expect(
      findings.skipped == [
        "truncated query line": 1, "no timestamp": 1, "no program name": 1, "truncated answer line": 1,
      ])
    #expect(findings.samples["truncated query line"]?.first?.line == 1)
  }
}
