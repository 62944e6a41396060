import Apply
import Foundation
import Testing

@Suite("What a server costs to hold a profile")
struct ServerCostTests {
  @Test("Scaled by names from the measured profile, in one sentence; small profiles say under 1 MiB")
  func sentence() {
    let bind = ServerCost.secondary(.bind)
    #expect(
      bind.sentence(names: 415_743)
        == "BIND (response-policy zone) holds these 415,743 names in about 270 MiB and takes about 2.4 s to load them (measured with 415,743 on Debian 12)"
    )
    let half = bind.estimate(names: 207_871)
    #expect(abs(half.mebibytes - 135) < 0.5 && abs((half.seconds ?? 0) - 1.2) < 0.01)
    #expect(
      ServerCost.dropIn(.dnsmasq)?.sentence(names: 3)
        == "dnsmasq (servers-file) holds these 3 names in under 1 MiB and loads them in under 0.1 s (measured with 415,743 on Debian 12)"
    )
    #expect(
      ServerCost.dropIn(.unbound)?.sentence(names: 415_743).contains("about 110 MiB and takes about 0.7 s") == true)
    let unmeasured = ServerCost(server: "x", names: 10, loadSeconds: nil, residentMiB: 10)
    #expect(unmeasured.sentence(names: 10) == "x holds these 10 names in about 10 MiB (measured with 10 on Debian 12)")
    #expect(ServerCost.dropIn(.dnsmasqHosts) == nil)
  }

  @Test("Every transfer kind and every RPZ target has a cost; the secondaries' unbound is its rpz, not local-zone")
  func table() {
    for kind in SecondaryConfiguration.Kind.allCases { #expect(ServerCost.secondary(kind).residentMiB > 0) }
    #expect(ServerCost.dropIn(.bind) == ServerCost.secondary(.bind))
    #expect(ServerCost.dropIn(.unbound) != ServerCost.secondary(.unbound))
  }

  @Test("This machine's memory from /proc/meminfo's MemTotal; nil for a file without it")
  func machine() throws {
    let file = FileManager.default.temporaryDirectory.appending(path: "meminfo-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: file) }
    try Data("MemFree:  100 kB\nMemTotal:       2048000 kB\n".utf8).write(to: file)
    #expect(ServerCost.machineMiB(meminfo: file.path) == 2000)
    #expect(ServerCost.machineMiB(meminfo: "/nonexistent") == nil)
  }
}
