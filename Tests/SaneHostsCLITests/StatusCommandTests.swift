import Foundation
import Store
import TestSupport
import Testing

@testable import SaneHostsCLI

@Suite("sanehosts status")
struct StatusCommandTests {
  @Test("A fresh store: the default profile, no sources, and a warning saying what to do")
  func fresh() async throws {
    let cli = try StoreCLI()
    defer { cli.remove() }
    let text = try await cli.ok("status")
    #expect(text.contains("Profile: default (active)"))
    #expect(text.contains("Last update: never"))
    #expect(text.contains("sanehosts sources add"))
    let json = try #require(try await cli.json("status", "--json") as? [String: Any])
    #expect(json["dataDirectory"] as? String == cli.dataDirectory.path)
    #expect((json["warnings"] as? [String])?.count == 1)
  }

  @Test(
    "Regression: a file of a deleted profile that is gone is forgotten (status kept showing it “changed since by someone else”); a gone file of a live profile says the file is gone"
  )
  func goneFiles() async throws {
    let fixture = try await ApplyFixture.make()
    defer { fixture.cli.remove() }
    try await fixture.cli.ok("profile", "create", "other")
    try await fixture.cli.ok("sources", "add", fixture.list.path, "--profile", "other")
    let kept = fixture.cli.directory.file("kept-hosts")
    let gone = fixture.cli.directory.file("gone-hosts")
    for file in [kept, gone] { try Data("127.0.0.1 localhost\n".utf8).write(to: file) }
    try await fixture.cli.ok("apply", "--hosts-file", gone.path, "--profile", "other")
    try await fixture.cli.ok("apply", "--hosts-file", kept.path)
    try FileManager.default.removeItem(at: kept)
    try FileManager.default.removeItem(at: gone)
    try await fixture.cli.ok("profile", "delete", "other", "--force")
    let status = try await fixture.cli.run("status")
    #expect(!status.standardOutput.contains(gone.path), "\(status.standardOutput)")
    #expect(status.standardOutput.contains("\(kept.path): profile default"), "\(status.standardOutput)")
    #expect(status.standardOutput.contains("(the file is gone)"), "\(status.standardOutput)")
    let ledger = try String(contentsOf: fixture.cli.dataDirectory.appending(path: "applied.json"), encoding: .utf8)
    #expect(!ledger.contains(gone.path.replacingOccurrences(of: "/", with: "\\/")) && !ledger.contains(gone.path))
  }
}
