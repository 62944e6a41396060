import Apply
import Foundation
import Store
import TestSupport
import Testing
import UseCases

@Suite("What the ledger says is applied")
struct AppliedFileTests {
  @Test("Each file of the ledger, whether it is still there, and whether it still holds what was written")
  func all() throws {
    let directory = try TemporaryDirectory(prefix: "sanehosts-applied")
    defer { directory.remove() }
    let data = DataDirectory(url: directory.file("data"))
    let file = directory.file("drop-in.conf")
    try Data("written".utf8).write(to: file)
    let ledger = Ledger(url: data.ledger)
    try ledger.record(
      Ledger.Entry(
        sha256: ManagedFile.sha256(Array("written".utf8)), sectionSHA256: "", date: Date(), profile: "home",
        names: 2, target: "unbound"), for: file.path)
    var applied = try #require(AppliedFile.all(data: data).first)
    #expect(applied.exists && applied.unchanged == true && applied.holds("home") && !applied.holds("other"))
    try Data("edited".utf8).write(to: file)
    applied = try #require(AppliedFile.all(data: data).first)
    #expect(applied.unchanged == false && applied.holds("home"))
    #expect(AppliedFile.all(data: data, checkContent: false).first?.unchanged == nil)
    try FileManager.default.removeItem(at: file)
    applied = try #require(AppliedFile.all(data: data).first)
    #expect(!applied.exists && applied.unchanged == false && !applied.holds("home"))
  }
}
