import Apply
import Foundation
import Store
import Testing
import UseCases

@Suite("Where an apply writes")
struct ApplyDestinationTests {
  @Test("The hosts file's section; a drop-in at the path given, in the drop-in folder, or at the server's default")
  func paths() {
    #expect(ApplyDestination.path(for: .hosts, hostsFile: "/h", output: "/ignored") == "/h")
    #expect(ApplyDestination.path(for: .server(.unbound), hostsFile: "/h", output: "/o.conf") == "/o.conf")
    #expect(
      ApplyDestination.path(for: .server(.unbound), hostsFile: "/h", dropInDirectory: "/d")
        == "/d/sanehosts-unbound.conf")
    #expect(
      ApplyDestination.path(for: .server(.bind), hostsFile: "/h", dropInDirectory: "/d") == "/d/sanehosts-bind.rpz")
    #expect(ApplyDestination.path(for: .server(.dnsmasq), hostsFile: "/h") == ServerTarget.dnsmasq.defaultOutput)
  }

  @Test("A hosts file owns a section, a drop-in the whole file; backups and the ledger default to the data directory")
  func files() {
    let data = DataDirectory(url: URL(fileURLWithPath: "/data"))
    let hosts = ApplyDestination.file(for: .hosts, hostsFile: "/h", data: data)
    #expect(hosts.ownership == .section && hosts.path == "/h")
    #expect(hosts.backups.directory.path == data.backups.path && hosts.ledger.url == data.ledger)
    let dropIn = ApplyDestination.file(
      for: .server(.dnsmasq), hostsFile: "/h", output: "/o.conf", backupDirectory: URL(fileURLWithPath: "/b"),
      keepBackups: 3,
      data: data)
    #expect(dropIn.ownership == .whole && dropIn.path == "/o.conf" && dropIn.backups.directory.path == "/b")
  }
}
