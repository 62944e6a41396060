import Apply
import Foundation
import Store
import TestSupport
import Testing
import UseCases

@Suite("Deleting a profile that is applied")
struct ProfileDeletionTests {
  @Test("Applied means: the ledger names the profile for a file that still exists and holds its names")
  func appliedFiles() throws {
    let directory = try TemporaryDirectory(prefix: "sanehosts-deletion")
    defer { directory.remove() }
    let data = DataDirectory(url: directory.file("data"))
    try FileManager.default.createDirectory(at: data.url, withIntermediateDirectories: true)
    let ledger = Ledger(url: data.ledger)
    let present = directory.file("present.conf")
    try Data("x".utf8).write(to: present)
    func entry(_ profile: String?, names: Int) -> Ledger.Entry {
      Ledger.Entry(sha256: "", sectionSHA256: "", date: Date(), profile: profile, names: names, target: "unbound")
    }
    try ledger.record(entry("home", names: 5), for: present.path)
    try ledger.record(entry("home", names: 5), for: directory.file("deleted-by-hand.conf").path)
    try ledger.record(entry("other", names: 5), for: directory.file("x").path)
    #expect(
      ProfileDeletion.appliedFiles(of: "home", data: data) == [.init(path: present.path, target: "unbound", names: 5)])
    try ledger.record(entry("home", names: 0), for: present.path)
    #expect(ProfileDeletion.appliedFiles(of: "home", data: data).isEmpty, "disabled: no names left")
  }
}
