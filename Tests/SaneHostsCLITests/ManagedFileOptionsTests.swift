import Apply
import ArgumentParser
import Foundation
import Store
import Testing

@testable import SaneHostsCLI

@Suite("Managed-file options and change text")
struct ManagedFileOptionsTests {
  @Test("The diff lists removed then added lines, skipping what it is told to")
  func diff() {
    let change = ManagedFile.Change(
      path: "/h", before: [], after: [], drift: nil, added: ["0.0.0.0 a", "@ IN SOA x"], removed: ["0.0.0.0 b"])
    #expect(ChangeText.diff(change) == "- 0.0.0.0 b\n+ 0.0.0.0 a\n+ @ IN SOA x\n")
    #expect(ChangeText.diff(change, skipping: ServerTarget.isVolatile) == "- 0.0.0.0 b\n+ 0.0.0.0 a\n")
  }

  @Test("Drift is explained: kept outside, replaced inside, nothing when none")
  func drift() {
    let since = Date(timeIntervalSince1970: 1_800_000_000)
    #expect(ChangeText.drift(.outsideSection(since: since), path: "/h")?.contains("are kept") == true)
    #expect(ChangeText.drift(.insideSection(since: since), path: "/h")?.contains("replaced") == true)
    #expect(ChangeText.drift(nil, path: "/h") == nil)
  }

  @Test("Backups default to the data directory; --backup-dir moves them")
  func backupDirectory() throws {
    let data = DataDirectory(url: URL(fileURLWithPath: "/tmp/sanehosts-data"))
    let defaults = try ManagedFileOptions.parse([])
    #expect(defaults.file(data: data).backups.directory.path == data.url.appendingPathComponent("backups").path)
    #expect(defaults.file(data: data).path == "/etc/hosts")
    let moved = try ManagedFileOptions.parse([
      "--backup-dir", "/srv/b", "--keep-backups", "3", "--hosts-file", "/tmp/h",
    ])
    #expect(moved.file(data: data).backups.directory.path == "/srv/b")
    #expect(moved.file(data: data).backups.keep == 3)
    #expect(throws: (any Error).self) { try ManagedFileOptions.parse(["--keep-backups", "0"]) }
  }
}
