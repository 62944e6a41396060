import Apply
import Foundation
import TestSupport
import Testing

@Suite("sanehosts disable")
struct DisableCommandTests {
  @Test("--dry-run writes nothing; disable takes a backup; a broken section is refused with its line")
  func dryRunAndBroken() async throws {
    let fixture = try await ApplyFixture.make()
    defer { fixture.cli.remove() }
    try await fixture.cli.ok("apply", "--hosts-file", fixture.hosts.path)
    let applied = try fixture.hostsText()
    let dry = try await fixture.cli.run("disable", "--dry-run", "--hosts-file", fixture.hosts.path)
    #expect(dry.status == 0 && dry.standardError.contains("Would remove 3 lines"))
    #expect(try fixture.hostsText() == applied)
    let done = try await fixture.cli.run("disable", "--hosts-file", fixture.hosts.path)
    #expect(done.standardError.contains("Backup: "))
    try Data("127.0.0.1 localhost\n\(ManagedSection.endMarker)\n".utf8).write(to: fixture.hosts)
    let broken = try await fixture.cli.run("disable", "--hosts-file", fixture.hosts.path)
    #expect(broken.status == 1)
    #expect(broken.standardError.contains("the end marker on line 2 has no begin marker before it"))
  }

  @Test("--output without --target is refused")
  func validation() async throws {
    let cli = try StoreCLI()
    defer { cli.remove() }
    let result = try await cli.run("disable", "--output", "/tmp/x.conf")
    #expect(result.status != 0 && result.standardError.contains("--output and --reload are for a DNS server target"))
  }

  @Test("Regression: the line counts of disable have thousands separators (it said 308731 lines)")
  func grouped() async throws {
    let fixture = try await ApplyFixture.make(names: (0..<1200).map { "n\($0).website" })
    defer { fixture.cli.remove() }
    try await fixture.cli.ok("apply", "--hosts-file", fixture.hosts.path)
    let dry = try await fixture.cli.run("disable", "--dry-run", "--hosts-file", fixture.hosts.path)
    #expect(dry.standardError.contains("Would remove 1,2"), "\(dry.standardError)")
    let done = try await fixture.cli.run("disable", "--hosts-file", fixture.hosts.path)
    #expect(done.standardError.contains(" lines)") && done.standardError.contains("(1,2"), "\(done.standardError)")
  }
}
