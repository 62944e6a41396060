import Foundation
import TestSupport
import Testing

@Suite("sanehosts restore")
struct RestoreCommandTests {
  @Test("restore --list shows the backups; restore puts the newest back")
  func restore() async throws {
    let fixture = try await ApplyFixture.make()
    defer { fixture.cli.remove() }
    try await fixture.cli.ok("apply", "--hosts-file", fixture.hosts.path)
    let list = try await fixture.cli.ok("restore", "--list", "--hosts-file", fixture.hosts.path)
    #expect(list.hasPrefix("ID"))
    #expect(list.split(separator: "\n").count == 2)
    let restored = try await fixture.cli.run("restore", "--hosts-file", fixture.hosts.path)
    #expect(restored.status == 0, "\(restored.standardError)")
    #expect(try fixture.hostsText() == ApplyFixture.userPart)
    let unknown = try await fixture.cli.run("restore", "nope", "--hosts-file", fixture.hosts.path)
    #expect(unknown.status == 1)
    #expect(unknown.standardError.contains("There is no backup “nope”"))
    #expect(unknown.standardError.contains("Backups, newest first:"))
  }

  @Test("status after restore describes the restored section (it said \"no section\")")
  func statusAfterRestore() async throws {
    let fixture = try await ApplyFixture.make()
    defer { fixture.cli.remove() }
    try await fixture.cli.ok("apply", "--hosts-file", fixture.hosts.path)
    try await fixture.cli.ok("deny", "add", "more.website")
    try await fixture.cli.ok("apply", "--hosts-file", fixture.hosts.path)
    #expect(try fixture.hostsText().contains("0.0.0.0 more.website"))
    // The newest backup holds the first apply's section: three names.
    try await fixture.cli.ok("restore", "--hosts-file", fixture.hosts.path)
    #expect(!(try fixture.hostsText().contains("more.website")))
    let status = try await fixture.cli.ok("status")
    #expect(status.contains("\(fixture.hosts.path): profile default, 3 names"), "\(status)")
    #expect(!status.contains("no section"))
  }

  @Test(
    "Regression: restoring a backup whose section someone else had edited keeps the edit known: status says changed, the next apply needs --force"
  )
  func restoreKeepsForeignEdit() async throws {
    let fixture = try await ApplyFixture.make()
    defer { fixture.cli.remove() }
    try await fixture.cli.ok("apply", "--hosts-file", fixture.hosts.path)
    let edited = try fixture.hostsText().replacingOccurrences(
      of: "0.0.0.0 ads.website", with: "192.168.1.9 ads.website")
    try Data(edited.utf8).write(to: fixture.hosts)
    // The forced apply backs up the edited file first; restoring that backup brings the edit back.
    try await fixture.cli.ok("apply", "--hosts-file", fixture.hosts.path, "--force")
    try await fixture.cli.ok("restore", "--hosts-file", fixture.hosts.path)
    #expect(try fixture.hostsText() == edited)
    let status = try await fixture.cli.ok("status")
    #expect(status.contains("changed since by someone else"), "\(status)")
    try await fixture.cli.ok("deny", "add", "new.website")
    let refused = try await fixture.cli.run("apply", "--hosts-file", fixture.hosts.path)
    #expect(refused.status == 1, "\(refused.standardError)")
    #expect(refused.standardError.contains("was edited by someone else"), "\(refused.standardError)")
    #expect(try fixture.hostsText() == edited)
    // A backup of SaneHosts' own section restores as its own: no drift.
    try await fixture.cli.ok("apply", "--hosts-file", fixture.hosts.path, "--force")
    try await fixture.cli.ok("deny", "add", "newer.website")
    try await fixture.cli.ok("apply", "--hosts-file", fixture.hosts.path)
    try await fixture.cli.ok("restore", "--hosts-file", fixture.hosts.path)
    #expect(!(try await fixture.cli.ok("status")).contains("changed since by someone else"))
  }

  @Test("restore --json lists the backups; with none, --list says so")
  func json() async throws {
    let fixture = try await ApplyFixture.make()
    defer { fixture.cli.remove() }
    let none = try await fixture.cli.run("restore", "--list", "--hosts-file", fixture.hosts.path)
    #expect(none.status == 0 && none.standardError.contains("No backups of"))
    try await fixture.cli.ok("apply", "--hosts-file", fixture.hosts.path)
    let list = try #require(
      try await fixture.cli.json("restore", "--json", "--hosts-file", fixture.hosts.path) as? [[String: Any]])
    #expect(list.count == 1)
    #expect(list.first?["bytes"] as? Int == ApplyFixture.userPart.utf8.count)
    let both = try await fixture.cli.run("restore", "--list", "some-id")
    #expect(both.status != 0)
  }

  @Test(
    "Regression: restore --list names the other files SaneHosts wrote and how to list their backups (after an apply to another file it named only /etc/hosts); a drop-in's backups are listed with --target"
  )
  func listNamesOtherFiles() async throws {
    let fixture = try await ApplyFixture.make()
    defer { fixture.cli.remove() }
    let dropIn = fixture.cli.directory.file("sanehosts.servers")
    try await fixture.cli.ok("apply", "--hosts-file", fixture.hosts.path)
    try await fixture.cli.ok("apply", "--target", "dnsmasq", "--output", dropIn.path)
    try await fixture.cli.ok("deny", "add", "more.website")
    try await fixture.cli.ok("apply", "--target", "dnsmasq", "--output", dropIn.path)
    let other = fixture.cli.directory.file("other-hosts")
    let listed = try await fixture.cli.run("restore", "--list", "--hosts-file", other.path)
    #expect(listed.standardError.contains("Other files SaneHosts wrote:"), "\(listed.standardError)")
    #expect(
      listed.standardError.contains(
        "\(dropIn.path) (dnsmasq, 1 backup): sanehosts restore --list --target dnsmasq --output \(dropIn.path)"),
      "\(listed.standardError)")
    #expect(listed.standardError.contains("sanehosts restore --list --hosts-file \(fixture.hosts.path)"))
    let dropInList = try await fixture.cli.run("restore", "--list", "--target", "dnsmasq", "--output", dropIn.path)
    #expect(dropInList.standardOutput.contains("sanehosts.servers-"), "\(dropInList.standardOutput)")
  }
}
