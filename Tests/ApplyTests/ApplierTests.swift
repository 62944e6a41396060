import Apply
import Blocklists
import Foundation
import Store
import TestSupport
import Testing

@Suite("Applier: the one apply of the CLI and the dashboard")
struct ApplierTests {
  @Test("The diff lists removed then added lines, skipping what it is told to")
  func diff() {
    let before = Array("0.0.0.0 b\n".utf8)
    let after = Array("0.0.0.0 a\n@ IN SOA x\n".utf8)
    let change = ManagedFile.Change(
      path: "/h", before: before, after: after, drift: nil, addedLines: [0..<9, 10..<20], removedLines: [0..<9])
    #expect(change.diffText() == "- 0.0.0.0 b\n+ 0.0.0.0 a\n+ @ IN SOA x\n")
    #expect(change.diffText(skipping: ServerTarget.isVolatile) == "- 0.0.0.0 b\n+ 0.0.0.0 a\n")
    // Counted from the bytes, without a string per line: the SOA line is not an entry.
    #expect(change.addedEntryCount(skipping: ServerTarget.isVolatile(bytes:)) == 1)
    #expect(change.addedEntryCount(skipping: { _ in false }) == 2)
    #expect(change.removedEntryCount(skipping: ServerTarget.isVolatile(bytes:)) == 1)
    let none = ManagedFile.Change(
      path: "/h", before: nil, after: after, drift: nil, addedLines: [], removedLines: [0..<9])
    #expect(none.removedEntryCount(skipping: { _ in false }) == 0)
  }

  @Test("Drift is explained: kept outside, replaced inside")
  func drift() {
    let since = Date(timeIntervalSince1970: 1_800_000_000)
    #expect(ManagedFile.Drift.outsideSection(since: since).note(path: "/h").contains("are kept"))
    #expect(ManagedFile.Drift.insideSection(since: since).note(path: "/h").contains("replaced"))
  }

  @Test("A dry run prepares the change and writes nothing; the apply then writes exactly that")
  func dryRunThenApply() async throws {
    try await TemporaryDirectory.with { directory in
      let data = DataDirectory(url: directory.file("data"))
      let store = try Store.open(data)
      let list = directory.file("list.txt")
      try Data("ads.website\ntracker.website\n".utf8).write(to: list)
      _ = try store.addSource(NewSource(location: list, key: "local", format: .domains))
      _ = try store.addRule("extra.website", action: .deny)
      let hosts = directory.file("hosts")
      try Data("127.0.0.1 localhost\n".utf8).write(to: hosts)
      let file = ManagedFile(
        path: hosts.path, ownership: .section, backupDirectory: data.backups, ledger: Ledger(url: data.ledger))
      let applier = Applier(store: store, file: file)

      let preview = try await applier.apply(Applier.Options(dryRun: true))
      #expect(preview.result.dryRun && !preview.result.wrote)
      #expect(preview.change.added.contains("0.0.0.0 extra.website"))
      #expect(try String(contentsOf: hosts, encoding: .utf8) == "127.0.0.1 localhost\n")
      // The source has no saved copy yet: only the deny rule counts, and the source is named.
      #expect(preview.result.warnings.contains(.notDownloaded(source: "local")))

      let applied = try await applier.apply(Applier.Options())
      #expect(applied.result.wrote)
      #expect(try String(contentsOf: hosts, encoding: .utf8).contains("0.0.0.0 extra.website"))
      #expect(try String(contentsOf: hosts, encoding: .utf8).hasPrefix("127.0.0.1 localhost\n"))
      let again = try await applier.apply(Applier.Options())
      #expect(!again.result.wrote && again.result.added == 0)
      // The same again with the ledger saying the file holds exactly this: nothing rendered, same answer.
      let content = try #require(file.ledger.entry(for: hosts.path)?.content)
      #expect(content.hasPrefix(try store.currentFingerprint(of: store.activeProfile())))
      #expect(again.result.names == applied.result.names && again.lastName == applied.lastName)
      // A new rule changes the fingerprint: rendered and written.
      _ = try store.addRule("more.website", action: .deny)
      let changed = try await applier.apply(Applier.Options())
      #expect(changed.result.wrote && changed.result.added == 1)
      #expect(file.ledger.entry(for: hosts.path)?.content != content)
    }
  }

  @Test("Applying again to a file that holds it already loads no names: the count comes from the compile")
  func unchangedLoadsNothing() async throws {
    try await TemporaryDirectory.with { directory in
      let data = DataDirectory(url: directory.file("data"))
      let store = try Store.open(data)
      _ = try store.addRule("ads.website", action: .deny)
      // Compiled as `update` leaves it: the profile's block set file under the current fingerprint.
      try await store.saveAsCompiled(
        try await ProfileList.compile(profile: nil, in: store).list, names: 1, withLookupTable: false)
      #expect(try ProfileList.plan(profile: nil, in: store).names == 1)

      for server in [nil, ServerTarget.dnsmasq] {
        let path = directory.file(server == nil ? "hosts" : "drop-in.conf")
        if server == nil { try Data("127.0.0.1 localhost\n".utf8).write(to: path) }
        let file = ManagedFile(
          path: path.path, ownership: server == nil ? .section : .whole, backupDirectory: data.backups,
          ledger: Ledger(url: data.ledger))
        let applier = Applier(store: store, file: file)
        let options = Applier.Options(server: server, check: false)
        let first = try await applier.apply(options)
        #expect(first.result.wrote && first.list != nil && first.result.names == 1)
        let again = try await applier.apply(options)
        #expect(!again.result.wrote && again.list == nil, "\(String(describing: server))")
        #expect(again.result.names == 1)
        // A verification still gets the names, read when it asks.
        #expect(try await again.verifiable(in: store) == ["ads.website"])
      }
    }
  }
}
