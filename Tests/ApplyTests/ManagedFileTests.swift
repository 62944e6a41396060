import Foundation
import TestSupport
import Testing

@testable import Apply

@Suite("A managed file: prepare, back up, replace, record")
struct ManagedFileTests {
  /// A managed hosts file in a fresh directory, with its backups and ledger beside it.
  struct Fixture {
    let directory: TemporaryDirectory
    let file: ManagedFile

    init(ownership: ManagedFile.Ownership = .section, contents: [UInt8]? = nil, keep: Int = 10) throws {
      directory = try TemporaryDirectory()
      let path = directory.file("hosts").path
      if let contents { try Data(contents).write(to: URL(fileURLWithPath: path)) }
      file = ManagedFile(
        path: path, ownership: ownership, backupDirectory: directory.file("backups"), keepBackups: keep,
        ledger: Ledger(url: directory.file("applied.json")))
    }

    func contents() throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: file.path))) }
    func write(_ bytes: [UInt8]) throws { try Data(bytes).write(to: URL(fileURLWithPath: file.path)) }
  }

  @Test(
    "Property: through the disk, apply keeps every byte outside the section and applying twice writes once",
    arguments: 0..<4)
  func propertyOnDisk(_ seed: UInt64) throws {
    var random = SplitMix(state: seed &+ 77)
    for _ in 0..<40 {
      let (original, _) = ManagedSectionTests.randomFile(&random)
      let fixture = try Fixture(contents: original)
      defer { fixture.directory.remove() }
      let lines = ManagedSectionTests.body(&random)
      let first = try fixture.file.commit(
        try fixture.file.prepare(lines: lines), profile: "p", names: lines.count, target: "hosts")
      let once = try fixture.contents()
      #expect(try ManagedSection.remove(from: once) == ManagedSection.remove(from: original), "seed \(seed)")
      #expect(try ManagedSection.lines(in: once) == lines)
      let again = try fixture.file.prepare(lines: lines)
      #expect(again.isNoOp)
      let second = try fixture.file.commit(again, profile: "p", names: lines.count, target: "hosts")
      #expect(!second.wrote && second.backup == nil)
      #expect(try fixture.contents() == once)
      // The backup holds the original exactly (when something was written).
      if first.wrote, let backup = first.backup {
        #expect(Array(try Data(contentsOf: backup.url)) == original)
      }
      // Removing gives back the file without a section.
      try fixture.file.commit(try fixture.file.prepareRemoval(), profile: nil, names: 0, target: "hosts")
      #expect(try fixture.contents() == ManagedSection.remove(from: original))
    }
  }

  @Test("A new file is created; the diff lists added and removed lines, comments left out")
  func diffAndCreate() throws {
    let fixture = try Fixture()
    defer { fixture.directory.remove() }
    let change = try fixture.file.prepare(lines: ["# header", "0.0.0.0 a.website", "0.0.0.0 b.website"])
    #expect(change.before == nil)
    #expect(change.added == ["0.0.0.0 a.website", "0.0.0.0 b.website"])
    let outcome = try fixture.file.commit(change, profile: "p", names: 2, target: "hosts")
    #expect(outcome.wrote && outcome.backup == nil)
    let next = try fixture.file.prepare(lines: ["# other header", "0.0.0.0 b.website", "0.0.0.0 c.website"])
    #expect(next.added == ["0.0.0.0 c.website"])
    #expect(next.removed == ["0.0.0.0 a.website"])
    let written = try fixture.file.commit(next, profile: "p", names: 2, target: "hosts")
    #expect(written.backup != nil)
    #expect(fixture.file.ledger.entry(for: fixture.file.path)?.names == 2)
  }

  @Test("Lines added outside the section by someone else are noticed and kept")
  func driftOutside() throws {
    let fixture = try Fixture(contents: Array("127.0.0.1 localhost\n".utf8))
    defer { fixture.directory.remove() }
    try fixture.file.commit(
      try fixture.file.prepare(lines: ["0.0.0.0 a.website"]), profile: "p", names: 1, target: "hosts")
    try fixture.write(try fixture.contents() + Array("10.0.0.5 printer.lan\n".utf8))
    let change = try fixture.file.prepare(lines: ["0.0.0.0 b.website"])
    guard case .outsideSection = change.drift else {
      Issue.record("expected drift outside the section, got \(String(describing: change.drift))")
      return
    }
    try fixture.file.commit(change, profile: "p", names: 1, target: "hosts")
    let text = String(decoding: try fixture.contents(), as: UTF8.self)
    #expect(text.hasSuffix("10.0.0.5 printer.lan\n"))
    #expect(text.contains("0.0.0.0 b.website") && !text.contains("a.website"))
    // After our write, the ledger matches again.
    #expect(try fixture.file.prepare(lines: ["0.0.0.0 b.website"]).drift == nil)
  }

  @Test("A hand edit inside the section is refused unless forced, and nothing is written")
  func driftInside() throws {
    let fixture = try Fixture(contents: Array("127.0.0.1 localhost\n".utf8))
    defer { fixture.directory.remove() }
    try fixture.file.commit(
      try fixture.file.prepare(lines: ["0.0.0.0 a.website"]), profile: "p", names: 1, target: "hosts")
    let edited = String(decoding: try fixture.contents(), as: UTF8.self)
      .replacingOccurrences(of: "0.0.0.0 a.website", with: "0.0.0.0 a.website\n192.168.1.2 mine.lan")
    try fixture.write(Array(edited.utf8))
    let change = try fixture.file.prepare(lines: ["0.0.0.0 b.website"])
    #expect(throws: ApplyError.self) {
      try fixture.file.commit(change, profile: "p", names: 1, target: "hosts")
    }
    #expect(String(decoding: try fixture.contents(), as: UTF8.self) == edited)
    #expect(fixture.file.backups.list().count == 1)  // only the first apply's
    let forced = try fixture.file.commit(change, profile: "p", names: 1, target: "hosts", force: true)
    #expect(forced.wrote)
    #expect(Array(try Data(contentsOf: forced.backup!.url)) == Array(edited.utf8))
  }

  @Test("A file changed between prepare and commit is not overwritten")
  func changedMeanwhile() throws {
    let fixture = try Fixture(contents: Array("127.0.0.1 localhost\n".utf8))
    defer { fixture.directory.remove() }
    let change = try fixture.file.prepare(lines: ["0.0.0.0 a.website"])
    try fixture.write(Array("127.0.0.1 localhost\n::1 localhost\n".utf8))
    #expect(throws: ApplyError.changedMeanwhile(path: fixture.file.path)) {
      try fixture.file.commit(change, profile: "p", names: 1, target: "hosts")
    }
    #expect(String(decoding: try fixture.contents(), as: UTF8.self) == "127.0.0.1 localhost\n::1 localhost\n")
  }

  @Test("Broken markers and NUL bytes are named errors; nothing is written")
  func badFiles() throws {
    let broken = try Fixture(contents: Array("\(ManagedSection.beginMarker)\n0.0.0.0 x\n".utf8))
    defer { broken.directory.remove() }
    #expect(throws: ApplyError.brokenSection(path: broken.file.path, problem: .unterminated(beginLine: 1))) {
      try broken.file.prepare(lines: ["0.0.0.0 a.website"])
    }
    let nul = try Fixture(contents: Array("127.0.0.1 local\0host\n".utf8))
    defer { nul.directory.remove() }
    #expect(throws: ApplyError.self) { try nul.file.prepare(lines: ["0.0.0.0 a.website"]) }
    #expect(throws: ApplyError.self) { try nul.file.prepare(lines: ["0.0.0.0 a\0b"]) }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let notFile = ManagedFile(
      path: directory.url.path, ownership: .section, backupDirectory: directory.file("b"),
      ledger: Ledger(url: directory.file("l.json")))
    #expect(throws: ApplyError.notRegularFile(path: directory.url.path)) { try notFile.read() }
  }

  @Test("The new file keeps the old one's mode, and a size cap is enforced")
  func modeAndSize() throws {
    let fixture = try Fixture(contents: Array("127.0.0.1 localhost\n".utf8))
    defer { fixture.directory.remove() }
    chmod(fixture.file.path, 0o640)
    try fixture.file.commit(
      try fixture.file.prepare(lines: ["0.0.0.0 a.website"]), profile: "p", names: 1, target: "hosts")
    var status = stat()
    stat(fixture.file.path, &status)
    #expect(status.st_mode & 0o777 == 0o640)
    var small = fixture.file
    small.maximumSize = 100
    #expect(throws: ApplyError.self) {
      try small.prepare(lines: Array(repeating: "0.0.0.0 long-name.website", count: 10))
    }
  }

  @Test("Restore puts a backup back and backs up what it replaces; an unknown id lists the known ones")
  func restore() throws {
    let original = Array("127.0.0.1 localhost\n".utf8)
    let fixture = try Fixture(contents: original)
    defer { fixture.directory.remove() }
    try fixture.file.commit(
      try fixture.file.prepare(lines: ["0.0.0.0 a.website"]), profile: "p", names: 1, target: "hosts")
    let applied = try fixture.contents()
    let backup = try #require(fixture.file.backups.list().first)
    let (_, outcome) = try fixture.file.restore(backup.id)
    #expect(try fixture.contents() == original)
    #expect(Array(try Data(contentsOf: outcome.backup!.url)) == applied)
    do {
      try fixture.file.restore("hosts-nope")
      Issue.record("restoring an unknown id succeeded")
    } catch {
      guard case .noSuchBackup(_, let known) = error else { throw error }
      #expect(known.count == 2)
    }
  }

  @Test("Whole-file ownership: a drop-in is written, replaced and removed")
  func wholeFile() throws {
    let fixture = try Fixture(ownership: .whole)
    defer { fixture.directory.remove() }
    try fixture.file.commit(
      try fixture.file.prepare(contents: Array("address=/a.website/#\n".utf8)), profile: "p", names: 1,
      target: "dnsmasq")
    let change = try fixture.file.prepare(contents: Array("address=/b.website/#\n".utf8))
    // dnsmasq lines are compared name by name.
    #expect(change.added == ["b.website"] && change.removed == ["a.website"])
    try fixture.file.commit(change, profile: "p", names: 1, target: "dnsmasq")
    let removal = try fixture.file.prepareRemoval()
    #expect(removal.after == nil)
    try fixture.file.commit(removal, profile: nil, names: 0, target: "dnsmasq")
    #expect(!FileManager.default.fileExists(atPath: fixture.file.path))
    #expect(fixture.file.backups.list().count == 2)
  }

  @Test("Digests taken beforehand (while a checker runs) are what the commit records; a whole file is hashed once")
  func digestsHandedIn() throws {
    let whole = try Fixture(ownership: .whole)
    defer { whole.directory.remove() }
    let bytes = Array("address=/a.website/#\n".utf8)
    let digests = whole.file.digests(bytes)
    #expect(digests.whole == ManagedFile.sha256(bytes) && digests.section == digests.whole)
    try whole.file.commit(
      try whole.file.prepare(contents: bytes), profile: "p", names: 1, target: "dnsmasq", digests: digests)
    let entry = try #require(whole.file.ledger.entry(for: whole.file.path))
    #expect(entry.sha256 == digests.whole && entry.sectionSHA256 == digests.section)
    // The next prepare sees no drift: the recorded digests match the file.
    #expect(try whole.file.prepare(contents: bytes).drift == nil)

    let section = try Fixture(contents: Array("127.0.0.1 localhost\n".utf8))
    defer { section.directory.remove() }
    let change = try section.file.prepare(lines: ["0.0.0.0 ads.website"])
    let after = try #require(change.after)
    let sectionDigests = section.file.digests(after)
    #expect(sectionDigests.whole == ManagedFile.sha256(after) && sectionDigests.section != sectionDigests.whole)
  }

  @Test("The diff skips what both sides share at the start and end, and finds the same lines as whole sets")
  func differenceMatchesSets() {
    var generator = SystemRandomNumberGenerator()
    for round in 0..<200 {
      let old = (0..<Int.random(in: 0...40, using: &generator)).map { "0.0.0.0 n\($0).website" }
      var new = old
      for _ in 0..<Int.random(in: 0...4, using: &generator) {
        switch Int.random(in: 0..<3, using: &generator) {
        case 0 where !new.isEmpty: new.remove(at: Int.random(in: 0..<new.count, using: &generator))
        case 1:
          new.insert("0.0.0.0 new\(round)-\(new.count).website", at: Int.random(in: 0...new.count, using: &generator))
        default: if new.count > 1 { new.swapAt(0, new.count - 1) }
        }
      }
      func side(_ lines: [String]) -> ([UInt8], [Range<Int>]) {
        var bytes: [UInt8] = []
        var ranges: [Range<Int>] = []
        for line in lines {
          ranges.append(bytes.count..<(bytes.count + line.utf8.count))
          bytes += Array(line.utf8) + [10]
        }
        return (bytes, ranges)
      }
      let (oldSide, newSide) = (side(old), side(new))
      let (added, removed) = ManagedFile.difference(oldSide, newSide)
      let text = { (bytes: [UInt8], ranges: [Range<Int>]) in ranges.map { String(decoding: bytes[$0], as: UTF8.self) } }
      #expect(text(newSide.0, added) == new.filter { !Set(old).contains($0) }, "round \(round)")
      #expect(text(oldSide.0, removed) == old.filter { !Set(new).contains($0) }, "round \(round)")
    }
  }

  @Test("A commit hashes the old file no more than preparing did, and records what a full hash would")
  func beforeDigestsFromPreparing() throws {
    let fixture = try Fixture(contents: Array("127.0.0.1 localhost\n".utf8))
    defer { fixture.directory.remove() }
    try fixture.file.commit(
      try fixture.file.prepare(lines: ["0.0.0.0 a.website"]), profile: "p", names: 1, target: "hosts")
    let change = try fixture.file.prepare(lines: ["0.0.0.0 a.website", "0.0.0.0 b.website"])
    #expect(change.added == ["0.0.0.0 b.website"] && change.removed.isEmpty)
    try fixture.file.commit(change, profile: "p", names: 2, target: "hosts")
    let entry = try #require(fixture.file.ledger.entry(for: fixture.file.path))
    let now = try fixture.contents()
    #expect(entry.sha256 == ManagedFile.sha256(now) && entry.pendingSHA256 == nil)
    #expect(entry.sectionSHA256 == ManagedFile.sha256(fixture.file.ourBytes(now)))
    // A hand edit outside the section is drift, still seen.
    try fixture.write(Array("# mine\n".utf8) + now)
    #expect(try fixture.file.prepare(lines: ["0.0.0.0 a.website"]).drift != nil)
  }

  @Test("A dnsmasq drop-in differs name by name, however its names are packed into lines")
  func packedNames() throws {
    let fixture = try Fixture(ownership: .whole)
    defer { fixture.directory.remove() }
    let oneALine = Array("address=/a.website/#\naddress=/b.website/#\naddress=/c.website/#\n".utf8)
    try fixture.file.commit(try fixture.file.prepare(contents: oneALine), profile: "p", names: 3, target: "dnsmasq")
    let packed = try fixture.file.prepare(contents: Array("address=/a.website/b.website/c.website/#\n".utf8))
    #expect(!packed.isNoOp && packed.added.isEmpty && packed.removed.isEmpty)
    let moved = try fixture.file.prepare(
      contents: Array("address=/a.website/new.website/\naddress=/c.website/#\n".utf8))
    #expect(moved.added == ["new.website"] && moved.removed == ["b.website"])
    // Other lines, and an address= line without a name, stay whole lines (dnsmasq's `#`, every domain,
    // counts as a name).
    let other = try fixture.file.prepare(
      contents: Array("address=/#/0.0.0.0\naddress=/0.0.0.0\nserver=/x.website/1.1.1.1\n".utf8))
    #expect(other.added == ["#", "address=/0.0.0.0", "server=/x.website/1.1.1.1"])
  }

  @Test("Backup names come from the whole path, so two files called hosts never share backups")
  func backupNames() {
    #expect(ManagedFile.backupName(for: "/etc/hosts") == "etc_hosts")
    #expect(ManagedFile.backupName(for: "/srv/a/hosts") != ManagedFile.backupName(for: "/srv/b/hosts"))
  }

  @Test("unchanged(content:) gives the bytes only while the file is exactly as written with that content")
  func unchangedContent() throws {
    let fixture = try Fixture(contents: Array("127.0.0.1 localhost\n".utf8))
    defer { fixture.directory.remove() }
    #expect(try fixture.file.unchanged(content: "c1") == nil)  // never written
    let change = try fixture.file.prepare(body: Array("0.0.0.0 a.website\n".utf8))
    try fixture.file.commit(change, profile: "p", names: 1, target: "hosts", content: "c1")
    #expect(try fixture.file.unchanged(content: "c1") == fixture.contents())
    #expect(try fixture.file.unchanged(content: "c2") == nil)
    try fixture.write(try fixture.contents() + Array("192.0.2.1 printer\n".utf8))
    #expect(try fixture.file.unchanged(content: "c1") == nil)  // edited by someone else
  }

  @Test("The diff of many lines finds exactly the lines only on one side, by byte range")
  func largeDiff() throws {
    let fixture = try Fixture()
    defer { fixture.directory.remove() }
    let old = (0..<5_000).map { "0.0.0.0 n\($0).website" }
    try fixture.file.commit(try fixture.file.prepare(lines: old), profile: "p", names: 5_000, target: "hosts")
    let new = old.filter { !$0.hasSuffix("7.website") } + ["0.0.0.0 extra.website", "0.0.0.0 n1.example.org"]
    let change = try fixture.file.prepare(lines: new)
    #expect(change.added == ["0.0.0.0 extra.website", "0.0.0.0 n1.example.org"])
    #expect(change.removed == old.filter { $0.hasSuffix("7.website") })
    #expect(change.addedLines.count == 2 && change.removedLines.count == 500)
  }

  @Test("A drop-in deleted by hand is written again, not refused as edited; a first write adds every line")
  func deletedDropIn() throws {
    let fixture = try Fixture(ownership: .whole)
    defer { fixture.directory.remove() }
    let lines = Array("address=/a.website/#\n# a comment\naddress=/b.website/#\n".utf8)
    let first = try fixture.file.prepare(contents: lines)
    #expect(first.drift == nil)
    #expect(first.added == ["a.website", "b.website"] && first.removed.isEmpty)
    try fixture.file.commit(first, profile: "p", names: 2, target: "dnsmasq")
    try FileManager.default.removeItem(atPath: fixture.file.path)
    let again = try fixture.file.prepare(contents: lines)
    #expect(again.drift == nil, "nothing to lose in a file that is gone")
    #expect(again.added.count == 2)
    try fixture.file.commit(again, profile: "p", names: 2, target: "dnsmasq")
    #expect(try fixture.contents() == lines)
  }

  @Test("Applying the same content again leaves the ledger as it is; a no-op after someone's edit records anew")
  func noOpLedger() throws {
    let fixture = try Fixture(contents: Array("127.0.0.1 localhost\n".utf8))
    defer { fixture.directory.remove() }
    let ledger = Ledger(url: fixture.directory.file("applied.json"))
    try fixture.file.commit(
      try fixture.file.prepare(body: Array("0.0.0.0 a.website\n".utf8)), profile: "p", names: 1, target: "hosts",
      content: "c1")
    let written = try #require(ledger.entry(for: fixture.file.path))
    let bytes = try #require(try fixture.file.unchanged(content: "c1"))
    let outcome = try fixture.file.commit(
      .none(path: fixture.file.path, bytes: bytes), profile: "p", names: 1, target: "hosts", content: "c1")
    #expect(!outcome.wrote)
    #expect(ledger.entry(for: fixture.file.path) == written, "the same entry, date included")

    // A line added outside the section: the same section again is a no-op that records the new file.
    try fixture.write(try fixture.contents() + Array("192.0.2.1 printer\n".utf8))
    let again = try fixture.file.prepare(body: Array("0.0.0.0 a.website\n".utf8))
    #expect(again.isNoOp && again.drift != nil)
    try fixture.file.commit(again, profile: "p", names: 1, target: "hosts", content: "c1")
    #expect(ledger.entry(for: fixture.file.path)?.sha256 == ManagedFile.sha256(try fixture.contents()))
  }
}
