import Apply
import Blocklists
import Testing

@Suite("The table of targets")
struct TargetTests {
  @Test("The hosts file first, then every server, by the names the command line takes")
  func names() {
    #expect(
      Target.all.map(\.name) == [
        "hosts", "dnsmasq", "dnsmasq-hosts", "unbound", "bind", "pdns-recursor", "knot-resolver",
      ])
    #expect(Target.names == "hosts, dnsmasq, dnsmasq-hosts, unbound, bind, pdns-recursor, knot-resolver")
    #expect(Target(name: "dnsmasq-hosts") == .server(.dnsmasqHosts))
    #expect(Target(name: "hosts") == .hosts && Target.hosts.server == nil)
  }

  @Test("Regression: a misspelt name is no target (it once fell back to the hosts file)")
  func misspelt() {
    for name in ["host", "Hosts", "dnsmasq_hosts", "pdns", "knot", "", " unbound"] {
      #expect(Target(name: name) == nil, "\(name)")
      #expect(ServerTarget(rawValue: name) == nil, "\(name)")
    }
  }

  @Test("Each target's name, label, summary, format and capabilities agree with each other")
  func consistent() {
    var seen: Set<String> = []
    for target in Target.all {
      #expect(seen.insert(target.name).inserted, "\(target.name) twice")
      #expect(!target.label.isEmpty && !target.summary.isEmpty && !target.summary.hasSuffix("."))
      // A format whose rules cover subdomains is exactly a target that blocks them.
      #expect(target.capabilities.subdomains == target.format.coversSubdomains, "\(target.name)")
      // What a target cannot block, it says (the hosts file's own notes are the apply warnings).
      if let server = target.server {
        #expect(server.kind.capabilities.cnameTargets == server.leaks.allSatisfy { !$0.contains("CNAME") })
        #expect(server.defaultOutput.hasPrefix("/"))
      }
    }
    #expect(Target.table.split(separator: "\n").count == Target.all.count)
  }
}
