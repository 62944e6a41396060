import Apply
import ArgumentParser
import Foundation
import Store
import Testing

@testable import SaneHostsCLI

@Suite("Managed-file options")
struct ManagedFileOptionsTests {
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
