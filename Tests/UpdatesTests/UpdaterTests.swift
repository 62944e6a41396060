import Blocklists
import Downloads
import Foundation
import GRDB
import Locking
import NIOCore
import TestSupport
import Testing

@testable import Store
@testable import Updates

@Suite("Updater against a real HTTP server", .serialized)
struct UpdaterTests {
  /// Three real lists: one with an ETag, one with Last-Modified, one with neither (chunked, no length).
  static func serveThreeLists(_ server: FixtureServer) throws {
    server.route("/easylist", .resource(.init(try realList("easylist.hosts.txt"), etag: "\"e1\"")))
    server.route(
      "/adguard",
      .resource(.init(try realList("adguarddns.hosts.txt"), lastModified: "Mon, 01 Jan 2024 00:00:00 GMT")))
    server.route("/stevenblack", .resource(.init(try realList("stevenblack.domains.txt"), framing: .chunked)))
  }

  static func addThreeLists(_ harness: Harness, _ server: FixtureServer) throws {
    try harness.add(server.url("/easylist"), key: "easylist")
    try harness.add(server.url("/adguard"), key: "adguard")
    try harness.add(server.url("/stevenblack"), key: "stevenblack")
  }

  @Test("First update: every source downloaded, parsed, saved with its names; the profile compiled")
  func firstUpdate() async throws {
    let harness = try Harness()
    defer { harness.remove() }
    try await FixtureServer.with { server in
      try Self.serveThreeLists(server)
      try Self.addThreeLists(harness, server)
      let log = EventLog()
      let summary = try await harness.update(events: log.append)

      #expect(summary.run.outcome == .completed)
      #expect(summary.run.updated == 3)
      #expect(summary.recompiled)
      for key in ["easylist", "adguard", "stevenblack"] {
        #expect(
          log.phases(of: key) == ["waiting", "connecting", "downloading", "parsing", "validating", "saving", "updated"])
      }

      // Each source's names are the same as compiling its file directly.
      let files = try ["easylist.hosts.txt", "adguarddns.hosts.txt", "stevenblack.domains.txt"].map(listFile)
      let direct = try await Compiler().compile(files.map { ListSource.file($0.path) })
      let sources = try harness.store.sources().map(\.source)
      for (index, source) in sources.enumerated() {
        let alone = try await Compiler().compile([ListSource.file(files[index].path)])
        #expect(source.status == .updated)
        #expect(source.unique == alone.count)
        #expect(source.accepted == direct.sources[index].findings.names)
        let names = await harness.store.names(of: source)
        #expect(names.count == source.unique)
        #expect(
          source.cacheFile.map { FileManager.default.fileExists(atPath: harness.store.directory.file($0).path) } == true
        )
        #expect(source.sha256?.count == 64)
      }
      #expect(sources[0].etag == "\"e1\"")
      #expect(sources[1].lastModified == "Mon, 01 Jan 2024 00:00:00 GMT")

      let compiled = try #require(summary.compiled)
      #expect(compiled.names == direct.count)
      // The profile's block set file holds the compile, under the current fingerprint.
      let saved = try #require(
        CompiledList.readArchive(
          at: harness.store.directory.file(compiled.file).path, fingerprint: compiled.fingerprint,
          rules: RuleSet()))
      #expect(saved.allNames.sorted() == direct.allNames.sorted())
      #expect(try harness.store.currentFingerprint(of: harness.store.profile(nil)) == compiled.fingerprint)
      #expect(harness.stagingIsEmpty)
      #expect(try harness.store.runs().count == 1)
    }
  }

  @Test("Second update: conditional requests, every source unchanged, nothing parsed or recompiled")
  func secondUpdateUnchanged() async throws {
    let harness = try Harness()
    defer { harness.remove() }
    try await FixtureServer.with { server in
      try Self.serveThreeLists(server)
      try Self.addThreeLists(harness, server)
      _ = try await harness.update()
      let files = { try FileManager.default.contentsOfDirectory(atPath: harness.store.directory.lists.path).sorted() }
      let before = try files()

      let log = EventLog()
      let summary = try await harness.update(events: log.append)
      #expect(summary.outcome("easylist") == .unchanged(.notModified))
      #expect(summary.outcome("adguard") == .unchanged(.notModified))
      // No validators: downloaded again, but the same checksum means no parse.
      #expect(summary.outcome("stevenblack") == .unchanged(.sameContent))
      #expect(!log.phases(of: "stevenblack").contains("parsing"))
      #expect(!summary.recompiled)
      #expect(summary.run.results.first { $0.key == "easylist" }?.bytesDownloaded == 0)
      #expect(server.requests(to: "/easylist").last?.header("If-None-Match") == "\"e1\"")
      #expect(server.requests(to: "/adguard").last?.header("If-Modified-Since") == "Mon, 01 Jan 2024 00:00:00 GMT")
      #expect(try files() == before, "no copy or block set file written again")
      #expect(try harness.store.sources().allSatisfy { $0.source.status == .unchanged })
    }
  }

  @Test("A changed source is parsed again; its old copy is kept as the previous one; the others stay unchanged")
  func changedSource() async throws {
    let harness = try Harness()
    defer { harness.remove() }
    try await FixtureServer.with { server in
      try Self.serveThreeLists(server)
      try Self.addThreeLists(harness, server)
      let first = try await harness.update()
      let oldCopy = try #require(try harness.store.sources().first { $0.source.key == "easylist" }?.source.cacheFile)

      server.route("/easylist", .resource(.init("0.0.0.0 changed.website\n0.0.0.0 new.website\n", etag: "\"e2\"")))
      // From 86,674 names to 2: taken only as accepted (else held back as a suspicious shrink).
      let summary = try await harness.update(options: Updater.Options(acceptShrink: true))
      #expect(summary.outcome("easylist") == .updated(names: 2, rejected: 0, bytes: 44))
      #expect(summary.outcome("adguard") == .unchanged(.notModified))
      #expect(summary.recompiled)
      let source = try #require(try harness.store.sources().first { $0.source.key == "easylist" }?.source)
      #expect(await harness.store.names(of: source) == ["changed.website", "new.website"])
      #expect(source.etag == "\"e2\"")
      #expect(source.cacheFile != oldCopy)
      #expect(source.previousCacheFile == oldCopy)
      #expect(FileManager.default.fileExists(atPath: harness.store.directory.file(oldCopy).path))
      #expect(summary.compiled?.names != first.compiled?.names)
      // The old compiled list was replaced, not left behind.
      let compiledFiles = try FileManager.default.contentsOfDirectory(atPath: harness.store.directory.profiles.path)
      #expect(compiledFiles.count == 1)
    }
  }

  @Test(
    "The profile merged while sources are still fetched equals compiling its inputs together, in order",
    arguments: [1, 4])
  func mergeWhileFetching(_ concurrent: Int) async throws {
    let harness = try Harness()
    defer { harness.remove() }
    try await FixtureServer.with { server in
      let lists = [
        "a": "0.0.0.0 a1.website\n0.0.0.0 shared.website\n",
        "b": "0.0.0.0 b1.website\n0.0.0.0 shared.website\n0.0.0.0 b2.website\n",
        "d": "0.0.0.0 d1.website\n0.0.0.0 a1.website\n",
      ]
      for (key, text) in lists { server.route("/\(key)", .resource(.init(text, etag: "\"\(key)1\""))) }
      server.route("/c", .status(404))
      for key in ["a", "b", "c", "d"] { try harness.add(server.url("/\(key)"), key: key) }
      _ = try await harness.update()
      // Second run: a changes, b fails (its copy is kept), c still has none, d is unchanged.
      server.route("/a", .resource(.init("0.0.0.0 a2.website\n0.0.0.0 d1.website\n", etag: "\"a2\"")))
      server.route("/b", .status(500))
      let summary = try await harness.update(options: Updater.Options(concurrentSources: concurrent))
      #expect(summary.recompiled)
      let compiled = try #require(summary.compiled)
      let saved = try #require(
        CompiledList.readArchive(
          at: harness.store.directory.file(compiled.file).path, fingerprint: compiled.fingerprint, rules: RuleSet()))
      let sources = try harness.store.sources().map(\.source)
      let inputs = sources.filter { $0.cacheFile != nil }
      #expect(inputs.map(\.key) == ["a", "b", "d"])
      let direct = try await Compiler().compile(
        inputs.map { source in
          var input = ListSource.file(harness.store.directory.file(source.cacheFile!).path)
          input.name = source.key
          return input
        })
      #expect(saved.allNames == direct.allNames, "same names in the same order")
      #expect(saved.sources.map(\.name) == ["a", "b", "d"])
      #expect(saved.sources.map(\.unique) == direct.sources.map(\.unique))
      for name in ["a2.website", "b2.website", "d1.website"] {
        #expect(saved.sources(listing: name) == direct.sources(listing: name), "\(name)")
      }
    }
  }

  /// Ways a source can fail on the second update.
  static let failures: [(String, FixtureServer.Response, SourceFailure.Kind)] = [
    ("404", .status(404), .download),
    ("500", .status(500), .download),
    ("HTML error page", .resource(.init("<!DOCTYPE html>\n<html><body>Rate limited</body></html>\n")), .notAList),
    (
      "gzip body",
      .resource(
        .init([0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03] + Array(repeating: 0x41, count: 100))),
      .notAList
    ),
    ("no valid entries", .resource(.init("# nothing here\n127.0.0.1 localhost\nnot a name!\n")), .noEntries),
    ("dropped mid-body", .drop(body: Array(repeating: UInt8(ascii: "a"), count: 100_000), after: 10_000), .download),
    ("redirect loop", .redirect(to: "/loop"), .download),
  ]

  @Test("A failing source keeps its previous good copy and is reported with a reason", arguments: 0..<7)
  func failingSourceKeepsCopy(_ index: Int) async throws {
    let (label, response, kind) = Self.failures[index]
    let harness = try Harness()
    defer { harness.remove() }
    try await FixtureServer.with { server in
      server.route("/good", .resource(.init("0.0.0.0 keep.website\n", etag: "\"g\"")))
      server.route("/list", .resource(.init("0.0.0.0 one.website\n0.0.0.0 two.website\n", etag: "\"1\"")))
      try harness.add(server.url("/good"), key: "good")
      try harness.add(server.url("/list"), key: "list")
      let first = try await harness.update()
      let before = try #require(try harness.store.sources().first { $0.source.key == "list" }?.source)

      server.route("/list", response)
      server.route("/loop", .redirect(to: "/list"))
      let summary = try await harness.update(options: Updater.Options(force: true))
      let failure = try #require(summary.outcome("list")?.failure, "\(label) did not fail")
      #expect(failure.kind == kind, "\(label): \(failure.message)")
      #expect(failure.message.hasPrefix("list: "), "\(label): the message names the source")
      #expect(failure.suggestion?.isEmpty == false, "\(label): a recovery suggestion is given")
      #expect(summary.run.outcome == .partial)

      let after = try #require(try harness.store.sources().first { $0.source.key == "list" }?.source)
      #expect(after.status == .failed)
      #expect(after.message?.isEmpty == false)
      #expect(after.cacheFile == before.cacheFile)
      #expect(after.sha256 == before.sha256)
      #expect(after.unique == 2)
      #expect(await harness.store.names(of: after) == ["one.website", "two.website"])
      #expect(FileManager.default.fileExists(atPath: harness.store.directory.file(before.cacheFile!).path))
      // The profile still blocks what the kept copy lists.
      #expect(summary.compiled?.names == first.compiled?.names)
      #expect(harness.stagingIsEmpty)
    }
  }

  @Test("A source over the size cap fails with the limit named and keeps its copy")
  func overSizeCap() async throws {
    let harness = try Harness()
    defer { harness.remove() }
    try await FixtureServer.with { server in
      server.route("/list", .resource(.init("0.0.0.0 small.website\n", etag: "\"1\"")))
      try harness.add(server.url("/list"), key: "list")
      _ = try await harness.update(maximumBytes: 1000)
      let big = Array(String(repeating: "0.0.0.0 big.website\n", count: 200).utf8)
      server.route("/list", .resource(.init(big, etag: "\"2\"", framing: .chunked)))
      let summary = try await harness.update(maximumBytes: 1000)
      let failure = try #require(summary.outcome("list")?.failure)
      #expect(failure.kind == .download)
      #expect(
        failure.message.contains("1000") || failure.message.contains("1.0 kB") || failure.message.contains("KiB"),
        "\(failure.message)")
      #expect(
        await harness.store.names(of: try #require(try harness.store.sources().first?.source)) == ["small.website"])
    }
  }

  @Test("Every source failing: the run is recorded as failed; a source never downloaded has no copy")
  func everySourceFails() async throws {
    let harness = try Harness()
    defer { harness.remove() }
    try await FixtureServer.with { server in
      server.route("/a", .status(404))
      server.route("/b", .resource(.init("<html><body>nope</body></html>")))
      try harness.add(server.url("/a"), key: "a")
      try harness.add(server.url("/b"), key: "b")
      let summary = try await harness.update()
      #expect(summary.run.outcome == .failed)
      #expect(summary.run.failed == 2)
      #expect(summary.missingCopies == ["a", "b"])
      #expect(summary.compiled == nil)
      #expect(try harness.store.sources().allSatisfy { $0.source.cacheFile == nil && $0.source.status == .failed })
      // The web page's advice is said once, and the stored message does not repeat the source's name.
      let page = try #require(try harness.store.sources().first { $0.source.key == "b" }?.source.message)
      #expect(page == "the download looks like a web page (HTML), not a list: check the URL points to the raw list.")
    }
  }

  @Test("Allow and deny rules of the profile shape the compiled list")
  func rulesApply() async throws {
    let harness = try Harness()
    defer { harness.remove() }
    try await FixtureServer.with { server in
      server.route("/list", .resource(.init("0.0.0.0 ads.website\n0.0.0.0 cdn.ads.website\n0.0.0.0 keep.website\n")))
      try harness.add(server.url("/list"), key: "list")
      try harness.store.addRule("ads.website", action: .allow)
      try harness.store.addRule("=extra.website", action: .deny)
      let summary = try await harness.update()
      let compiled = try #require(summary.compiled)
      let rules = try harness.store.ruleSet(for: harness.store.profile(nil))
      let saved = try #require(
        CompiledList.readArchive(
          at: harness.store.directory.file(compiled.file).path, fingerprint: compiled.fingerprint, rules: rules))
      #expect(saved.allNames == ["keep.website", "extra.website"])
      #expect(compiled.ruleCounts["allow ads.website"] == 2)

      // Changing a rule recompiles without downloading anything new.
      try harness.store.removeRule("ads.website", action: .allow)
      let again = try await harness.update()
      #expect(again.recompiled)
      #expect(again.compiled?.names == 4)
      #expect(try Updater.isCompiledListCurrent(try harness.store.activeProfile(), in: harness.store))

      // A data directory from before the copies' block set files (or one whose file was lost): the copy
      // is compiled alone once, its file written again, and the profile is the same.
      let lists = harness.store.directory.lists
      let written = try FileManager.default.contentsOfDirectory(atPath: lists.path).filter { $0.hasSuffix(".blockset") }
      #expect(written.count == 1)
      for file in written { try FileManager.default.removeItem(at: lists.appendingPathComponent(file)) }
      try harness.store.addRule("=more.website", action: .deny)
      let rebuilt = try await harness.update()
      #expect(rebuilt.recompiled && rebuilt.compiled?.names == 5)
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: lists.path).filter { $0.hasSuffix(".blockset") } == written)
    }
  }

  @Test("A local file source: updated, then unchanged by its modification time")
  func fileSource() async throws {
    let harness = try Harness()
    defer { harness.remove() }
    let file = harness.directory.file("mine.txt")
    try "example-ads.com\ntracker.website\n".write(to: file, atomically: true, encoding: .utf8)
    try harness.store.addSource(NewSource.parse(file.path))
    let first = try await harness.update()
    #expect(first.outcomes.first?.outcome == .updated(names: 2, rejected: 0, bytes: 32))
    let second = try await harness.update()
    #expect(second.outcomes.first?.outcome == .unchanged(.notModified))
  }

  @Test("A profile without enabled sources is a named error")
  func noSources() async throws {
    let harness = try Harness()
    defer { harness.remove() }
    await #expect(throws: UpdateError.self) { try await harness.update() }
    do {
      _ = try await harness.update()
    } catch let error as UpdateError {
      #expect(error.localizedDescription.contains("default"))
      #expect(error.recoverySuggestion?.contains("sources add") == true)
    }
  }

  @Test("Sources are fetched in parallel, at most `concurrentSources` at a time")
  func boundedParallelism() async throws {
    let harness = try Harness()
    defer { harness.remove() }
    try await FixtureServer.with { server in
      for index in 0..<6 {
        let body = Array("0.0.0.0 host\(index).website\n".utf8) + Array(repeating: UInt8(ascii: "\n"), count: 2000)
        server.route("/l\(index)", .trickle(body: body, chunk: 500, interval: .milliseconds(20)))
        try harness.add(server.url("/l\(index)"), key: "l\(index)")
      }
      let active = ActiveCounter()
      // A fetch ends at `saving` (then its copy waits for its turn to be merged, and is done after), or at
      // `done` when it ends without a new copy.
      let summary = try await harness.update(options: Updater.Options(concurrentSources: 2)) { event in
        if case .source(let key, let phase) = event {
          switch phase {
          case .connecting: active.start(key)
          case .saving, .done: active.finish(key)
          default: break
          }
        }
      }
      #expect(summary.run.updated == 6)
      #expect(active.maximum == 2)
    }
  }
}

/// Counts sources between connecting and done.
final class ActiveCounter: Sendable {
  private let state = Locked<(active: Set<String>, maximum: Int)>(([], 0))

  func start(_ key: String) {
    state.withLock {
      $0.active.insert(key)
      $0.maximum = max($0.maximum, $0.active.count)
    }
  }

  func finish(_ key: String) { state.withLock { _ = $0.active.remove(key) } }

  var maximum: Int { state.withLock { $0.maximum } }
}
