import Apply
import Blocklists
import Testing

@Suite("dnsmasq-hosts target (addn-hosts)")
struct DnsmasqHostsTests {
  @Test("An addn-hosts file: exact names, A and AAAA only, and it says what leaks")
  func facts() {
    let target = ServerTarget.dnsmasqHosts
    #expect(target.instructions(output: "/a/b.hosts") == "addn-hosts=/a/b.hosts")
    #expect(target.format == .hosts && target.fileExtension == "conf")
    #expect(!target.kind.capabilities.subdomains && !target.kind.capabilities.everyRecordType)
    #expect(target.leaks.joined().contains("HTTPS") && target.leaks.joined().contains("exact names"))
    #expect(target.defaultReload() == .systemd(unit: "dnsmasq"))
    #expect(target.kind.formerOutput == nil)
  }
}
