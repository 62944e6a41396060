import Blocklists
import Foundation
import TestSupport
import Testing

@testable import Store

@Suite("Saving update runs")
struct StoreUpdatesTests {
  let earlier = Date(timeIntervalSince1970: 1_700_000_000)
  let later = Date(timeIntervalSince1970: 1_700_086_400)

  func run(_ profile: Profile, _ results: [UpdateRun.SourceResult], names: Int = 0, at date: Date) -> UpdateRun {
    UpdateRun(
      profileID: profile.id, profileName: profile.name, startedAt: date, finishedAt: date.addingTimeInterval(3),
      forced: false, results: results, names: names)
  }

  func compiled(_ profile: Profile, file: String, names: Int, at date: Date) -> CompiledProfile {
    CompiledProfile(
      profileID: profile.id, file: file, sha256: "sha-\(file)", names: names, fingerprint: "fp-\(file)",
      compiledAt: date, ruleCounts: ["allow ok.website": names])
  }

  @Test("An updated source gets its new names, copy, validators and counts; the old copy is kept as the previous one")
  func updated() async throws {
    try await withStore { store, _ throws in
      let source = try store.addSource(web("ads")).source
      let first = try await store.save(["old.website", "both.website"], for: source, at: earlier)
      let profile = try store.activeProfile()
      let copy = try store.copy(
        ["both.website", "new.website", "new.website", "q.website"], key: source.key, format: .adblock,
        etag: "\"v2\"", lastModified: "Tue, 14 Nov 2023 22:13:20 GMT")
      let replaced = try await store.commit(
        [SourceUpdate(sourceID: source.id, attemptedAt: later, change: .updated(copy))],
        run: run(profile, [.init(key: source.key, status: .updated, names: 3)], at: later), compiled: nil)

      #expect(replaced.isEmpty)
      #expect(try store.source(key: source.key)?.previousCacheFile == first.cacheFile)
      #expect(await store.names(of: source) == ["both.website", "new.website", "q.website"])
      let saved = try #require(try store.source(key: source.key))
      #expect(saved.status == .updated)
      #expect(saved.message == nil)
      #expect(saved.cacheFile == copy.cacheFile)
      #expect(saved.sha256 == copy.sha256)
      #expect(saved.etag == "\"v2\"")
      #expect(saved.lastModified == "Tue, 14 Nov 2023 22:13:20 GMT")
      #expect(saved.lastAttempt == later)
      #expect(saved.lastSuccess == later)
      #expect(saved.lastChange == later)
      #expect(saved.bytes == copy.bytes)
      #expect(saved.accepted == 4)
      #expect(saved.unique == 3)
      #expect(saved.duplicates == 1)
      #expect(saved.rejected == 0)
      #expect(saved.detectedFormat == .adblock)
      #expect(saved.findings == copy.findings)
      #expect(saved.hasCopy)
    }
  }

  @Test("The same cache file saved again is not reported as replaced")
  func sameCacheFile() async throws {
    try await withStore { store, _ throws in
      let source = try store.addSource(web("ads")).source
      let profile = try store.activeProfile()
      let copy = try store.copy(["a.website"], key: source.key, sha: "fixed-sha")
      for _ in 0..<2 {
        let replaced = try await store.commit(
          [SourceUpdate(sourceID: source.id, attemptedAt: later, change: .updated(copy))],
          run: run(profile, [], at: later), compiled: nil)
        #expect(replaced.isEmpty)
      }
      #expect(await store.names(of: source) == ["a.website"])
    }
  }

  @Test("An unchanged source keeps its names; new validators replace the old, absent ones do not")
  func unchanged() async throws {
    try await withStore { store, _ throws in
      let source = try store.addSource(web("ads")).source
      let profile = try store.activeProfile()
      let copy = try store.copy(["a.website", "b.website"], key: source.key, etag: "\"v1\"", lastModified: "Mon")
      _ = try await store.commit(
        [SourceUpdate(sourceID: source.id, attemptedAt: earlier, change: .updated(copy))],
        run: run(profile, [], at: earlier), compiled: nil)

      let noValidators = try await store.commit(
        [SourceUpdate(sourceID: source.id, attemptedAt: later, change: .unchanged(etag: nil, lastModified: nil))],
        run: run(profile, [.init(key: source.key, status: .unchanged)], at: later), compiled: nil)
      #expect(noValidators.isEmpty)
      var saved = try #require(try store.source(key: source.key))
      #expect(saved.status == .unchanged)
      #expect(saved.etag == "\"v1\"")
      #expect(saved.lastModified == "Mon")
      #expect(saved.lastSuccess == later)
      #expect(saved.lastChange == earlier, "unchanged content did not change")
      #expect(saved.cacheFile == copy.cacheFile)
      #expect(saved.unique == 2)
      #expect(await store.names(of: source) == ["a.website", "b.website"])

      let even = later.addingTimeInterval(60)
      _ = try await store.commit(
        [SourceUpdate(sourceID: source.id, attemptedAt: even, change: .unchanged(etag: "\"v1b\"", lastModified: nil))],
        run: run(profile, [], at: even), compiled: nil)
      saved = try #require(try store.source(key: source.key))
      #expect(saved.etag == "\"v1b\"")
      #expect(saved.lastModified == nil, "validators are replaced together")
    }
  }

  @Test("A failed source keeps its previous copy, names and counts, and records why")
  func failed() async throws {
    try await withStore { store, _ throws in
      let source = try store.addSource(web("ads")).source
      let good = try await store.save(["a.website", "b.website"], for: source, at: earlier)
      let profile = try store.activeProfile()
      let replaced = try await store.commit(
        [SourceUpdate(sourceID: source.id, attemptedAt: later, change: .failed(message: "HTTP 503: try later"))],
        run: run(profile, [.init(key: source.key, status: .failed, message: "HTTP 503: try later")], at: later),
        compiled: nil)
      #expect(replaced.isEmpty)
      let saved = try #require(try store.source(key: source.key))
      #expect(saved.status == .failed)
      #expect(saved.message == "HTTP 503: try later")
      #expect(saved.lastAttempt == later)
      #expect(saved.lastSuccess == earlier)
      #expect(saved.cacheFile == good.cacheFile)
      #expect(saved.sha256 == good.sha256)
      #expect(saved.unique == 2)
      #expect(saved.accepted == 2)
      #expect(exists(saved.cacheFile!, in: store))
      #expect(await store.names(of: source) == ["a.website", "b.website"])

      // A later success clears the message.
      _ = try await store.commit(
        [SourceUpdate(sourceID: source.id, attemptedAt: later, change: .unchanged(etag: nil, lastModified: nil))],
        run: run(profile, [], at: later), compiled: nil)
      #expect(try store.source(key: source.key)?.message == nil)
    }
  }

  @Test("The run is saved with its results and counts, newest first")
  func runSaved() async throws {
    try await withStore { store, _ throws in
      let profile = try store.activeProfile()
      let other = try store.createProfile("other")
      let results: [UpdateRun.SourceResult] = [
        .init(key: "a", status: .updated, names: 10, bytesDownloaded: 2048, seconds: 1.5),
        .init(key: "b", status: .failed, message: "timed out"),
      ]
      _ = try await store.commit([], run: run(profile, results, names: 10, at: earlier), compiled: nil)
      _ = try await store.commit([], run: run(other, [], at: later), compiled: nil)
      _ = try await store.commit([], run: run(profile, [], names: 12, at: later), compiled: nil)

      let runs = try store.runs(of: profile)
      #expect(runs.map(\.names) == [12, 10])
      let saved = try #require(runs.last)
      #expect(saved.id != nil)
      #expect(saved.results == results)
      #expect(saved.outcome == .partial)
      #expect(saved.updated == 1)
      #expect(saved.failed == 1)
      #expect(saved.startedAt == earlier)
      #expect(saved.finishedAt == earlier.addingTimeInterval(3))
      #expect(try store.runs().count == 3)
      #expect(try store.runs(limit: 1).map(\.profileName) == ["default"])
      #expect(try store.runs(of: other).count == 1)
    }
  }

  @Test("The compiled profile is inserted, then replaced, and the replaced file is returned")
  func compiledUpserted() async throws {
    try await withStore { store, _ throws in
      let profile = try store.activeProfile()
      #expect(try store.compiled(profile) == nil)
      let first = compiled(profile, file: "profiles/1-aaaa.domains", names: 5, at: earlier)
      let none = try await store.commit([], run: run(profile, [], at: earlier), compiled: first)
      #expect(none.isEmpty)
      #expect(try store.compiled(profile) == first)

      let second = compiled(profile, file: "profiles/1-bbbb.domains", names: 7, at: later)
      let replaced = try await store.commit([], run: run(profile, [], at: later), compiled: second)
      #expect(replaced == ["profiles/1-aaaa.domains"])
      #expect(try store.compiled(profile) == second)
      #expect(try store.integer("SELECT COUNT(*) FROM compiledProfile") == 1)

      let same = try await store.commit([], run: run(profile, [], at: later), compiled: second)
      #expect(same.isEmpty, "recompiling to the same file replaces nothing")
    }
  }

  @Test("A source removed before the commit is skipped; the rest is saved")
  func removedSourceSkipped() async throws {
    try await withStore { store, _ throws in
      let gone = try store.addSource(web("gone")).source
      let kept = try store.addSource(web("kept")).source
      let profile = try store.activeProfile()
      let goneCopy = try store.copy(["gone.website"], key: gone.key)
      let keptCopy = try store.copy(["kept.website"], key: kept.key)
      try store.removeSource(gone.key)

      let replaced = try await store.commit(
        [
          SourceUpdate(sourceID: gone.id, attemptedAt: later, change: .updated(goneCopy)),
          SourceUpdate(sourceID: kept.id, attemptedAt: later, change: .updated(keptCopy)),
        ], run: run(profile, [], at: later), compiled: nil)
      #expect(replaced.isEmpty)
      #expect(try store.allSources().map(\.key) == [kept.key])
      #expect(await store.names(of: kept) == ["kept.website"])
      #expect(try store.runs().count == 1)
    }
  }

  @Test("A profile deleted before the commit: the run is kept, unlinked, and no compiled list is saved")
  func deletedProfile() async throws {
    try await withStore { store, _ throws in
      let doomed = try store.createProfile("doomed")
      try store.deleteProfile("doomed")
      _ = try await store.commit(
        [], run: run(doomed, [], at: later),
        compiled: compiled(doomed, file: "profiles/9-x.domains", names: 1, at: later))
      let runs = try store.runs()
      #expect(runs.map(\.profileName) == ["doomed"])
      #expect(runs.first?.profileID == nil)
      #expect(try store.integer("SELECT COUNT(*) FROM compiledProfile") == 0)
    }
  }

  @Test("A commit that fails saves nothing at all")
  func atomic() async throws {
    try await withStore { store, _ throws in
      let source = try store.addSource(web("ads")).source
      let profile = try store.activeProfile()
      let broken = try store.copy(["a.website"], key: source.key)
      let good = try store.copy(["b.website"], key: "other")
      // The run's record fails to save after both sources were written: the whole commit rolls back.
      try store.execute("CREATE TRIGGER refuse BEFORE INSERT ON updateRun BEGIN SELECT RAISE(ABORT, 'refused'); END")
      let other = try store.addSource(web("other")).source
      await #expect(throws: (any Error).self) {
        _ = try await store.commit(
          [
            SourceUpdate(sourceID: other.id, attemptedAt: later, change: .updated(good)),
            SourceUpdate(sourceID: source.id, attemptedAt: later, change: .updated(broken)),
          ], run: run(profile, [], at: later), compiled: nil)
      }
      #expect(try store.source(key: "lists-website-other")?.status == .new)
      #expect(await store.names(of: other).isEmpty)
      #expect(try store.runs().isEmpty)
    }
  }

  @Test("A task cancelled before the commit saves nothing")
  func cancelled() async throws {
    try await withStore { store, _ throws in
      let source = try store.addSource(web("ads")).source
      let profile = try store.activeProfile()
      let copy = try store.copy(["a.website"], key: source.key)
      let update = SourceUpdate(sourceID: source.id, attemptedAt: later, change: .updated(copy))
      let record = run(profile, [], at: later)
      let task = Task {
        withUnsafeCurrentTask { $0?.cancel() }
        return try await store.commit([update], run: record, compiled: nil)
      }
      await #expect(throws: CancellationError.self) { try await task.value }
      #expect(try store.runs().isEmpty)
      #expect(try store.source(key: source.key)?.status == .new)
      #expect(await store.names(of: source).isEmpty)
    }
  }

  @Test("A copy's names are read from its block set file, or compiled from the copy once when it has none")
  func copyNames() async throws {
    try await withStore { store, _ throws in
      let source = try store.addSource(web("ads")).source
      let saved = try await store.save(["b.website", "a.website", "a.website"], for: source)
      let file = store.directory.file(Store.listFile(forCopy: saved.cacheFile!))
      #expect(!FileManager.default.fileExists(atPath: file.path))  // a copy saved before these files
      #expect(await store.names(of: saved) == ["a.website", "b.website"])
      #expect(FileManager.default.fileExists(atPath: file.path))  // written on first use
      #expect(await store.names(of: saved) == ["a.website", "b.website"])
      #expect(await store.names(of: source) == ["a.website", "b.website"])  // the source as the store has it now
    }
  }

  @Test("referencedFiles lists every cached copy and compiled list")
  func referenced() async throws {
    try await withStore { store, _ throws in
      let source = try store.addSource(web("ads")).source
      let saved = try await store.save(["a.website"], for: source)
      let profile = try store.activeProfile()
      _ = try await store.commit(
        [], run: run(profile, [], at: later),
        compiled: compiled(profile, file: "profiles/1-c.domains", names: 1, at: later))
      #expect(
        try store.referencedFiles() == [
          saved.cacheFile!, Store.listFile(forCopy: saved.cacheFile!), "profiles/1-c.domains",
        ])
    }
  }

  @Test("removeUnreferencedFiles removes only files nothing refers to, in lists and profiles")
  func removeUnreferenced() async throws {
    try await withStore { store, _ throws in
      let source = try store.addSource(web("ads")).source
      let saved = try await store.save(["a.website"], for: source)
      let profile = try store.activeProfile()
      try Data("a.website\n".utf8).write(to: store.directory.file("profiles/1-c.domains"))
      _ = try await store.commit(
        [], run: run(profile, [], at: later),
        compiled: compiled(profile, file: "profiles/1-c.domains", names: 1, at: later))
      for orphan in ["lists/crash-leftover.list", "profiles/1-old.domains"] {
        try Data("x\n".utf8).write(to: store.directory.file(orphan))
      }
      // Files outside the two folders are not the function's business.
      try Data("x\n".utf8).write(to: store.directory.file("notes.txt"))
      let staged = store.directory.staging.appendingPathComponent("in-progress.names")
      try Data("x\n".utf8).write(to: staged)

      #expect(try store.removeUnreferencedFiles() == 2)
      #expect(!exists("lists/crash-leftover.list", in: store))
      #expect(!exists("profiles/1-old.domains", in: store))
      #expect(exists(saved.cacheFile!, in: store))
      #expect(exists("profiles/1-c.domains", in: store))
      #expect(exists("notes.txt", in: store))
      #expect(FileManager.default.fileExists(atPath: staged.path))
      #expect(try store.removeUnreferencedFiles() == 0)
    }
  }
}
