import Apply
import Foundation
import TestSupport
import Testing

@Suite("The ledger of what SaneHosts wrote")
struct LedgerTests {
  @Test("Entries are kept per absolute path, survive a reload, and can be forgotten")
  func roundTrip() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let ledger = Ledger(url: directory.file("state/applied.json"))
    #expect(ledger.entries().isEmpty)
    let entry = Ledger.Entry(
      sha256: "aa", sectionSHA256: "bb", date: Date(timeIntervalSince1970: 1_800_000_000), profile: "p", names: 3,
      target: "hosts")
    try ledger.record(entry, for: directory.file("hosts").path)
    #expect(Ledger(url: ledger.url).entry(for: directory.file("hosts").path) == entry)
    #expect(Ledger(url: ledger.url).entry(for: directory.file("./hosts").path) == entry)
    var status = stat()
    stat(ledger.url.path, &status)
    #expect(status.st_mode & 0o777 == 0o600)
    try ledger.record(nil, for: directory.file("hosts").path)
    #expect(ledger.entries().isEmpty)
  }

  @Test("A damaged ledger reads as empty instead of failing the apply")
  func damaged() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try Data("{not json".utf8).write(to: directory.file("applied.json"))
    #expect(Ledger(url: directory.file("applied.json")).entries().isEmpty)
  }
}
