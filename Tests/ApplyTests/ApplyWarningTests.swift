import Foundation
import Testing

@testable import Apply

@Suite("Apply warnings")
struct ApplyWarningTests {
  @Test("Each warning reads as one sentence naming its value; the command line's advice is in it")
  func descriptions() {
    #expect(ApplyWarning.notDownloaded(source: "ads").description.hasPrefix("ads has no saved copy yet"))
    #expect(ApplyWarning.notDownloaded(source: "ads").description.contains("`sanehosts update`"))
    #expect(ApplyWarning.largeHostsFile(names: 150_000).description.hasPrefix("150,000 names"))
    #expect(ApplyWarning.largeHostsFile(names: 150_000).description.contains("--target dnsmasq"))
    #expect(ApplyWarning.rewrittenInPlace(path: "/etc/hosts", backup: "b1").description.contains("b1"))
    #expect(ApplyWarning.flushFailed(cache: "nscd").description == "could not flush nscd")
    #expect(ApplyWarning.notChecked(.unavailable(tool: "unbound-checkconf")).description.hasPrefix("unbound-checkconf"))
    #expect(ApplyWarning.reloadFailed(path: "/x.conf", server: "dnsmasq").description.contains("reloading dnsmasq"))
    let drift = ApplyWarning.drift(.outsideSection(since: Date(timeIntervalSince1970: 0)), path: "/h")
    #expect(drift.description.hasPrefix("note: /h was changed by someone else"))
    let leak = ApplyWarning.cannotBlock(server: "dnsmasq", what: "CNAME chains.")
    #expect(leak.description == "note: dnsmasq cannot block this: CNAME chains.")
    let former = ApplyWarning.formerDropIn(path: ServerTarget.dnsmasq.kind.formerOutput ?? "")
    #expect(former.description.contains("disable --target dnsmasq --output /etc/dnsmasq.d/sanehosts.conf"))
  }

  @Test("Every target but BIND and PowerDNS Recursor names what it still answers for a blocked name")
  func leaks() {
    #expect(ServerTarget.dnsmasq.leaks.joined().contains("from its cache"))
    #expect(ServerTarget.dnsmasqHosts.leaks.joined().contains("HTTPS"))
    #expect(ServerTarget.unbound.leaks.joined().contains("transparent zone"))
    #expect(ServerTarget.knotResolver.leaks.joined().contains("CNAME"))
    #expect(ServerTarget.bind.leaks.isEmpty && ServerTarget.pdnsRecursor.leaks.isEmpty)
  }

  @Test("In JSON a warning is its sentence, as `apply --json` has always written it")
  func json() throws {
    let data = try JSONEncoder().encode([ApplyWarning.flushFailed(cache: "nscd")])
    #expect(String(decoding: data, as: UTF8.self) == #"["could not flush nscd"]"#)
  }
}
