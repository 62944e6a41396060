import Apply
import Foundation
import TestSupport
import Testing

@testable import SaneHostsCLI

/// A data directory with one local list source, updated, and a hosts file to apply to.
struct ApplyFixture {
  let cli: StoreCLI
  var hosts: URL { cli.directory.file("hosts") }
  var list: URL { cli.directory.file("list.txt") }
  static let userPart = "127.0.0.1\tlocalhost\r\n::1 localhost ip6-localhost\r\n# my printer\r\n10.0.0.5 printer.lan"

  static func make(names: [String] = ["ads.website", "tracker.website", "metrics.website"]) async throws -> ApplyFixture
  {
    let fixture = ApplyFixture(cli: try StoreCLI())
    try Data((names.joined(separator: "\n") + "\n").utf8).write(to: fixture.list)
    try Data(userPart.utf8).write(to: fixture.hosts)
    try await fixture.cli.ok("sources", "add", fixture.list.path, "--name", "local")
    try await fixture.cli.ok("update", "--quiet")
    return fixture
  }

  func hostsText() throws -> String { try String(contentsOf: hosts, encoding: .utf8) }
}

@Suite("sanehosts apply, disable and restore")
struct ApplyCommandTests {
  @Test(
    "apply writes the section and keeps the user's lines byte for byte; again writes nothing; disable gives the file back"
  )
  func applyAndDisable() async throws {
    let fixture = try await ApplyFixture.make()
    defer { fixture.cli.remove() }
    let first = try await fixture.cli.run("apply", "--hosts-file", fixture.hosts.path)
    #expect(first.status == 0, "\(first.standardError)")
    #expect(first.standardError.contains("Applied profile default"))
    #expect(first.standardError.contains("3 names; entries +3 −0"))
    let text = try fixture.hostsText()
    #expect(text.hasPrefix(ApplyFixture.userPart + "\n" + ManagedSection.beginMarker + "\r\n"))
    #expect(text.contains("0.0.0.0 tracker.website\r\n"))
    let second = try await fixture.cli.run("apply", "--hosts-file", fixture.hosts.path)
    #expect(second.standardError.contains("nothing to write"))
    #expect(try fixture.hostsText() == text)
    try await fixture.cli.ok("disable", "--hosts-file", fixture.hosts.path)
    #expect(try fixture.hostsText() == ApplyFixture.userPart)
    let again = try await fixture.cli.run("disable", "--hosts-file", fixture.hosts.path)
    #expect(again.status == 0 && again.standardError.contains("no SaneHosts section"))
  }

  @Test("--dry-run and --diff show the change and write nothing; --json reports it")
  func dryRunDiffJSON() async throws {
    let fixture = try await ApplyFixture.make()
    defer { fixture.cli.remove() }
    let dry = try await fixture.cli.run("apply", "--hosts-file", fixture.hosts.path, "--dry-run", "--diff")
    #expect(dry.status == 0)
    // A summary first, then a unified diff a pager (or patch) reads.
    #expect(dry.standardOutput.hasPrefix("# \(fixture.hosts.path): +"), "\(dry.standardOutput)")
    #expect(dry.standardOutput.contains("--- \(fixture.hosts.path) (now)\n+++ \(fixture.hosts.path) (after apply)\n"))
    #expect(dry.standardOutput.contains("+0.0.0.0 ads.website"))
    #expect(dry.standardError.contains("nothing written (--dry-run)"))
    #expect(try fixture.hostsText() == ApplyFixture.userPart)
    let object = try await fixture.cli.json("apply", "--hosts-file", fixture.hosts.path, "--json")
    let result = try #require(object as? [String: Any])
    #expect(result["names"] as? Int == 3)
    #expect(result["added"] as? Int == 3)
    #expect(result["wrote"] as? Bool == true)
    #expect((result["backup"] as? String)?.isEmpty == false)
    try await fixture.cli.ok("deny", "add", "new.website")
    let diff = try await fixture.cli.run("apply", "--hosts-file", fixture.hosts.path, "--diff")
    #expect(diff.standardOutput.hasPrefix("# \(fixture.hosts.path): +1 −0 lines\n"), "\(diff.standardOutput)")
    #expect(diff.standardOutput.contains("+0.0.0.0 new.website"))
    #expect(diff.standardOutput.contains("@@ "))
  }

  @Test("status lists where the profile was applied, and notices a file changed since")
  func status() async throws {
    let fixture = try await ApplyFixture.make()
    defer { fixture.cli.remove() }
    #expect(try await fixture.cli.ok("status").contains("Applied: nowhere yet"))
    try await fixture.cli.ok("apply", "--hosts-file", fixture.hosts.path)
    let shown = try await fixture.cli.ok("status")
    #expect(
      shown.contains("\(fixture.hosts.resolvingSymlinksInPath().path): profile default, 3 names, written just now\n"),
      "\(shown)")
    try Data((try fixture.hostsText() + "\n10.1.1.1 x.lan\n").utf8).write(to: fixture.hosts)
    #expect(try await fixture.cli.ok("status").contains("(changed since by someone else)"))
    let object = try #require(try await fixture.cli.json("status", "--json") as? [String: Any])
    let applied = try #require(object["applied"] as? [[String: Any]])
    #expect(applied.first?["unchanged"] as? Bool == false)
  }

  @Test("A hand edit inside the section stops apply until --force")
  func editedSection() async throws {
    let fixture = try await ApplyFixture.make()
    defer { fixture.cli.remove() }
    try await fixture.cli.ok("apply", "--hosts-file", fixture.hosts.path)
    let edited = try fixture.hostsText().replacingOccurrences(
      of: "0.0.0.0 ads.website", with: "192.168.1.9 ads.website")
    try Data(edited.utf8).write(to: fixture.hosts)
    try await fixture.cli.ok("deny", "add", "new.website")
    let refused = try await fixture.cli.run("apply", "--hosts-file", fixture.hosts.path)
    #expect(refused.status == 1)
    #expect(refused.standardError.contains("was edited by someone else"))
    #expect(refused.standardError.contains("--force"))
    #expect(try fixture.hostsText() == edited)
    try await fixture.cli.ok("apply", "--hosts-file", fixture.hosts.path, "--force")
    #expect(try fixture.hostsText().contains("0.0.0.0 ads.website"))
  }

  @Test(
    "Regression: dry runs refuse where the real run does, with the same message and exit (they said the edits would be replaced, exit 0; disable printed that warning, then refused)"
  )
  func dryRunsRefuseAsTheRealRun() async throws {
    let fixture = try await ApplyFixture.make()
    defer { fixture.cli.remove() }
    try await fixture.cli.ok("apply", "--hosts-file", fixture.hosts.path)
    let edited = try fixture.hostsText().replacingOccurrences(
      of: "0.0.0.0 ads.website", with: "192.168.1.9 ads.website")
    try Data(edited.utf8).write(to: fixture.hosts)
    try await fixture.cli.ok("deny", "add", "new.website")
    for command in [["apply"], ["disable"]] {
      let real = try await fixture.cli.runner.run(command + ["--hosts-file", fixture.hosts.path])
      let dry = try await fixture.cli.runner.run(command + ["--hosts-file", fixture.hosts.path, "--dry-run"])
      #expect(real.status == 1, "\(command): \(real.standardError)")
      #expect(dry.status == real.status, "\(command): \(dry.standardError)")
      #expect(dry.standardError == real.standardError, "\(command)")
      #expect(dry.standardError.contains("was edited by someone else"), "\(command): \(dry.standardError)")
      #expect(!real.standardError.contains("are replaced"), "\(command): \(real.standardError)")
      #expect(try fixture.hostsText() == edited)
    }
    // With --force the warning says the edits are replaced, and they are.
    let forced = try await fixture.cli.run("apply", "--hosts-file", fixture.hosts.path, "--dry-run", "--force")
    #expect(forced.status == 0)
    #expect(forced.standardError.contains("those edits are replaced"), "\(forced.standardError)")
    // A folder that does not exist: refused by both.
    for dryRun in [[], ["--dry-run"]] {
      let missing = try await fixture.cli.runner.run(["apply", "--hosts-file", "/nonexistent-dir/hosts"] + dryRun)
      #expect(missing.status == 1, "\(dryRun): \(missing.standardError)")
      #expect(missing.standardError.contains("the folder /nonexistent-dir does not exist"), "\(missing.standardError)")
      #expect(!missing.standardError.contains("Would apply"))
    }
  }

  @Test(
    "Regression: apply -q prints no notes (it printed them); one name is “1 name”, and names are not mixed with entries"
  )
  func quietAndCounts() async throws {
    let fixture = try await ApplyFixture.make(names: ["ads.website"])
    defer { fixture.cli.remove() }
    let output = fixture.cli.directory.file("sanehosts.rpz")
    let loud = try await fixture.cli.run("apply", "--target", "bind", "--output", output.path, "--no-check")
    #expect(loud.standardError.contains(": 1 name; entries +"), "\(loud.standardError)")
    #expect(loud.standardError.contains("note:"), "\(loud.standardError)")
    try await fixture.cli.ok("deny", "add", "more.website")
    let quiet = try await fixture.cli.run("apply", "--target", "bind", "--output", output.path, "--no-check", "-q")
    #expect(quiet.status == 0)
    #expect(!quiet.standardError.contains("note:"), "\(quiet.standardError)")
  }

  @Test("A drop-in's missing folder is created and said so; a dry run says it would be, and creates nothing")
  func dropInFolderSaid() async throws {
    let fixture = try await ApplyFixture.make()
    defer { fixture.cli.remove() }
    let output = fixture.cli.directory.file("new/folder/sanehosts.servers")
    let dry = try await fixture.cli.run("apply", "--target", "dnsmasq", "--output", output.path, "--dry-run")
    #expect(dry.status == 0, "\(dry.standardError)")
    #expect(dry.standardError.contains("apply would create it"), "\(dry.standardError)")
    #expect(!FileManager.default.fileExists(atPath: output.deletingLastPathComponent().path))
    let real = try await fixture.cli.run("apply", "--target", "dnsmasq", "--output", output.path)
    #expect(real.status == 0, "\(real.standardError)")
    #expect(
      real.standardError.contains("note: created the folder \(output.deletingLastPathComponent().path)"),
      "\(real.standardError)")
  }

  @Test("Above the size threshold apply advises a DNS server target")
  func sizeAdvice() async throws {
    let fixture = try await ApplyFixture.make(names: (0..<(HostsSection.adviceThreshold + 1)).map { "n\($0).website" })
    defer { fixture.cli.remove() }
    let result = try await fixture.cli.run("apply", "--hosts-file", fixture.hosts.path)
    #expect(result.status == 0)
    #expect(result.standardError.contains("every lookup scans the whole hosts file"))
  }

  @Test("Not allowed to write: a clear message saying to use sudo or --hosts-file, and nothing written")
  func notRoot() async throws {
    let fixture = try await ApplyFixture.make()
    defer { fixture.cli.remove() }
    let setpriv = "/usr/bin/setpriv"
    try #require(FileManager.default.isExecutableFile(atPath: setpriv), "setpriv (util-linux) is needed")
    let executable = try CommandRunner().executable.path
    // Let the unprivileged user reach the data (the store is read before anything is written).
    let process = Process()
    process.executableURL = URL(fileURLWithPath: setpriv)
    process.arguments = [
      "--reuid=65534", "--regid=65534", "--clear-groups", executable, "apply", "--hosts-file", fixture.hosts.path,
    ]
    process.environment = ["SANEHOSTS_HOME": fixture.cli.dataDirectory.path, "TERM": "dumb", "PATH": "/usr/bin:/bin"]
    let error = Pipe()
    process.standardError = error
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let message = await onOwnThread {
      let text = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      process.waitUntilExit()
      return text
    }
    #expect(process.terminationStatus == 1)
    #expect(message.contains("Cannot write \(fixture.hosts.path)"), "\(message)")
    #expect(message.contains("sudo"))
    #expect(message.contains("--hosts-file"))
    #expect(try fixture.hostsText() == ApplyFixture.userPart)
  }
}

@Suite("apply says what the server costs")
struct ApplyCostTests {
  @Test("A drop-in's apply says the server's memory and load time for these names; more than half the machine warns")
  func cost() async throws {
    let fixture = try await ApplyFixture.make()
    defer { fixture.cli.remove() }
    let output = fixture.cli.directory.file("sanehosts.servers").path
    let result = try await fixture.cli.runner.run(["apply", "--target", "dnsmasq", "--output", output, "--no-check"])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardError.contains("Cost: dnsmasq (servers-file) holds these 3 names in under 1 MiB"))
    let quiet = try await fixture.cli.runner.run(["apply", "--target", "dnsmasq", "--output", output, "--quiet"])
    #expect(!quiet.standardError.contains("Cost:"))
    let big = ApplyCommand.costLines(.bind, names: 415_743, machineMiB: 512)
    #expect(big.contains("about 270 MiB") && big.contains("warning: that is more than half of this machine's 512 MiB"))
    #expect(!ApplyCommand.costLines(.bind, names: 415_743, machineMiB: 4096).contains("warning"))
    #expect(ApplyCommand.costLines(.dnsmasqHosts, names: 10, machineMiB: 1).isEmpty)
  }
}
