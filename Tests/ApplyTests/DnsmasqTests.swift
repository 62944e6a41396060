import Apply
import Testing

@Suite("dnsmasq target (servers-file)")
struct DnsmasqTests {
  @Test("A servers-file is read again on SIGHUP; a file of /etc/dnsmasq.d is configuration, read at a restart")
  func servedOrConfiguration() {
    let configuration = "/etc/dnsmasq.d/sanehosts.conf"
    #expect(
      ServerTarget.dnsmasq.instructions(output: configuration).hasPrefix(
        "conf-dir=/etc/dnsmasq.d/,*.conf  (dnsmasq reads it again only when it restarts"))
    #expect(
      ServerTarget.dnsmasq.instructions(output: "/srv/dns/block.servers").hasPrefix(
        "servers-file=/srv/dns/block.servers  ("))
    #expect(ServerTarget.dnsmasq.defaultReload(output: configuration) == .systemdRestart(unit: "dnsmasq"))
    #expect(ServerTarget.dnsmasq.defaultReload() == .systemd(unit: "dnsmasq"))
  }

  @Test("Every record type, subdomains and exceptions; the former drop-in path is known")
  func facts() {
    let kind = ServerTarget.dnsmasq.kind
    #expect(kind.capabilities.everyRecordType && kind.capabilities.subdomains && kind.capabilities.exceptions)
    #expect(!kind.capabilities.cnameTargets && kind.leaks.joined().contains("CNAME"))
    #expect(kind.formerOutput == "/etc/dnsmasq.d/sanehosts.conf")
    #expect(kind.checker == ("dnsmasq", "dnsmasq-base"))
  }
}
