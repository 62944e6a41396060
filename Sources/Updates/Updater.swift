import Blocklists
import Crypto
import Downloads
import Files
import Foundation
import Store

/// Updates a profile: fetches its enabled sources in parallel, each through connect → download → parse →
/// validate → save, merges each new copy's names once into the profile's set (in profile order, as soon as
/// the sources before it are done), and saves the whole run in one transaction.
///
/// - Unchanged sources cost a conditional request: a 304 (or the same SHA-256) is not parsed again.
/// - A failing source keeps its previous good copy; the others are still saved.
/// - Cancelling the calling task at any phase leaves the store exactly as it was: new copies are written
///   under new names and only referred to by the final transaction; cancelled, they are removed.
/// - Only one update runs per data directory at a time (`UpdateLock`).
public struct Updater: Sendable {
  /// How an update runs.
  public struct Options: Sendable {
    /// Download and parse every source even if unchanged.
    public var force: Bool
    /// Sources fetched at the same time.
    public var concurrentSources: Int
    /// Wait for another running update instead of failing at once.
    public var waitForLock: Bool
    /// Take new copies with fewer than half the names of the last good one, instead of holding them back.
    public var acceptShrink: Bool

    /// Creates options; by default 4 sources at a time, conditional requests, no waiting, suspicious
    /// shrinks held back.
    public init(
      force: Bool = false, concurrentSources: Int = 4, waitForLock: Bool = false, acceptShrink: Bool = false
    ) {
      self.force = force
      self.concurrentSources = max(1, concurrentSources)
      self.waitForLock = waitForLock
      self.acceptShrink = acceptShrink
    }
  }

  /// The store to update.
  public let store: Store
  /// Fetches the lists; its temporary directory should be in the data directory's `staging` folder so
  /// keeping a copy is a rename.
  public let client: any DownloadClient
  /// Parses the lists.
  public var compiler: Compiler

  /// Creates an updater.
  public init(store: Store, client: any DownloadClient, compiler: Compiler = Compiler()) {
    self.store = store
    self.client = client
    self.compiler = compiler
  }

  /// Updates a profile (the active one when nil), reporting progress to `events` as it goes.
  ///
  /// `cancellation` cancels single sources while the others go on (cancelling the calling task cancels
  /// the whole run).
  public func update(
    profile name: String? = nil, options: Options = Options(), cancellation: SourceCancellation = SourceCancellation(),
    events: @escaping @Sendable (UpdateEvent) -> Void = { _ in }
  ) async throws -> UpdateSummary {
    let started = ContinuousClock.now
    let startedAt = Date()
    let lock: UpdateLock
    let profile: Profile
    let members: [ProfileSource]
    do {
      lock = try await Self.lock(store.directory, wait: options.waitForLock)
      store.removeStagingLeftovers()
      try store.removeUnreferencedFiles()
      profile = try store.profile(name)
      members = try store.sources(in: profile.name)
    } catch let error as StoreError {
      throw UpdateError.store(error)
    }
    defer { withExtendedLifetime(lock) {} }
    let sources = members.filter(\.enabled).map(\.source)
    guard !sources.isEmpty else { throw UpdateError.noSources(profile: profile.name) }
    events(.started(profile: profile, sources: sources))
    for source in sources { events(.source(key: source.key, .waiting)) }

    let staging = store.directory.staging.appendingPathComponent("run-\(UUID().uuidString)", isDirectory: true)
    try? FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: staging) }

    var works: [Int64: SourceWork] = [:]
    var created: [String] = []  // copies written by this run, removed unless the commit succeeds
    var unflushed: [String] = []  // files written by this run, flushed to disk all at once before the commit
    var committed = false
    defer { if !committed { store.removeFiles(created) } }

    // What the profile compiles from, and its last compile: read before the fetches, so that merging
    // can start while later sources still download.
    let rules: RuleSet
    let previous: CompiledProfile?
    do {
      rules = try store.ruleSet(for: profile)
      previous = try store.compiled(profile)
    } catch {
      throw UpdateError.store(error)
    }
    /// A source's input: its new copy, else its previous one; nil without either.
    func input(of source: Source) -> Input? {
      if let copy = works[source.id]?.copy {
        return Input(
          source: source, file: copy.cacheFile, sha256: copy.sha256, names: copy.unique, bytes: Int(copy.bytes))
      }
      if let file = source.cacheFile {
        return Input(
          source: source, file: file, sha256: source.sha256 ?? "", names: source.unique ?? 0,
          bytes: Int(source.bytes ?? 0))
      }
      return nil
    }

    // Each finished source is merged into the profile's set in the profile's order while the others are
    // still fetched, once a recompile is certain: no compile yet, or a source has a new copy.
    let fetcher = SourceFetcher(
      store: store, client: client, compiler: compiler, staging: staging, force: options.force,
      acceptShrink: options.acceptShrink, events: events)
    var merging: Compiler.Merging?
    var nextToMerge = 0
    /// Takes a source's new copy for merging, unless the source was cancelled while the copy waited:
    /// then the copy is dropped, and the previous one is used, as for any cancelled source.
    func take(_ source: Source) {
      guard let work = works[source.id], work.parsed != nil, !cancellation.close(source.key) else { return }
      store.removeFiles(work.createdFiles)
      unflushed.removeAll { work.createdFiles.contains($0) }
      works[source.id] = fetcher.cancelled(source)
    }
    /// Merges an input, keeping the block set file a new copy's merge writes with the run's files.
    func merge(_ input: Input) async throws {
      if let written = try await add(input, to: &merging!, works: &works, fetcher: fetcher) {
        if written.isNew { created.append(written.file) }
        unflushed.append(written.file)
      }
    }
    func mergeReady() async throws {
      guard merging != nil || previous == nil || works.values.contains(where: { $0.copy != nil }) else { return }
      while nextToMerge < sources.count, works[sources[nextToMerge].id] != nil {
        let source = sources[nextToMerge]
        nextToMerge += 1
        take(source)
        guard let input = input(of: source) else { continue }
        if merging == nil {
          // Sized from the names known so far, scaled to every source
          // and to the share of a profile's names that more than one of its lists give (on the 10 real
          // lists, 416,000 distinct names of 790,000 listed: a table for the sum, 16 MB of slots, where 8
          // MB hold the union), or for the last compile's names if more. The set grows if it must.
          let known = sources.compactMap { source in
            works[source.id]?.copy.map { $0.unique > 0 ? $0.unique : $0.accepted } ?? source.unique
          }
          let listed = known.reduce(0, +) * sources.count / max(1, known.count)
          let union = sources.count > 1 ? listed * 3 / 5 : listed
          let estimate = max(union, previous.map { $0.names + $0.names / 16 } ?? 0)
          let sizes = sources.compactMap { works[$0.id]?.copy.map { Int($0.bytes) } ?? $0.bytes.map(Int.init) }
          let bytes = sizes.reduce(0, +) * sources.count / max(1, sizes.count)
          merging = Compiler.Merging(sourceCount: sources.count, capacity: estimate, byteCapacity: bytes)
        }
        try await merge(input)
      }
    }

    try await withThrowingTaskGroup(of: SourceWork.self) { group in
      var pending = sources[...]
      func startNext() {
        guard let source = pending.popFirst() else { return }
        group.addTask { try await fetcher.fetch(source, cancellation: cancellation) }
      }
      for _ in 0..<options.concurrentSources { startNext() }
      do {
        while let work = try await group.next() {
          works[work.sourceID] = work
          created += work.createdFiles
          unflushed += work.unflushedFiles
          startNext()
          try await mergeReady()
        }
      } catch {
        // The run ends here (cancelled, or a merge failed): a fetch that had already passed its last
        // check still returns its work, with the files it saved. Left in the group, that work was dropped
        // and its files stayed behind (seen once in a loaded full run); they go with the run's own.
        group.cancelAll()
        while let result = await group.nextResult() {
          if case .success(let work) = result { created += work.createdFiles }
        }
        throw error
      }
    }
    try Task.checkCancellation()

    // Compile the profile from every good copy, unless nothing it depends on changed.
    let inputs: [Input] = sources.compactMap(input(of:))
    let fingerprint = Store.fingerprint(inputs.map { ($0.source.id, $0.sha256, $0.source.format) }, rules: rules)
    var compiled = previous
    var recompiled = false
    if let previous, previous.fingerprint == fingerprint,
      FileManager.default.fileExists(atPath: store.directory.file(previous.file).path)
    {
      compiled = previous
    } else if !inputs.isEmpty || previous != nil {
      events(.compiling(sources: inputs.count))
      // Merged early, the set already holds every input in order (the same `input(of:)`, the same order).
      if merging == nil {
        merging = Compiler.Merging(
          sourceCount: sources.count, capacity: inputs.reduce(0) { $0 + $1.names },
          byteCapacity: inputs.reduce(0) { $0 + $1.bytes })
        for input in inputs { try await merge(input) }
      }
      let result = try await finish(merging.take()!, rules: rules, profile: profile, fingerprint: fingerprint)
      created.append(result.file)
      unflushed.append(result.file)
      compiled = result
      recompiled = true
    }
    try Task.checkCancellation()

    // Save everything in one transaction, once every file it refers to is on disk.
    events(.saving)
    do {
      try StagedFile.flush(unflushed.map { store.directory.file($0).path })
    } catch {
      throw UpdateError.unsaved(path: error.path, detail: error.detail)
    }
    let results = sources.map { source in works[source.id]!.result }
    let run = UpdateRun(
      profileID: profile.id, profileName: profile.name, startedAt: startedAt, finishedAt: Date(),
      forced: options.force, results: results, names: compiled?.names ?? 0)
    let updates = sources.map { works[$0.id]!.update }
    let replaced = try await store.commit(updates, run: run, compiled: recompiled ? compiled : nil)
    committed = true
    store.removeFiles(replaced.filter { !created.contains($0) })

    let summary = UpdateSummary(
      run: (try? store.runs(of: profile, limit: 1).first) ?? run,
      outcomes: sources.map { ($0.key, works[$0.id]!.outcome) },
      compiled: compiled, recompiled: recompiled,
      missingCopies: sources.filter { $0.cacheFile == nil && works[$0.id]?.copy == nil }.map(\.key),
      elapsed: ContinuousClock.now - started)
    events(.finished(summary))
    return summary
  }

  /// Takes the update lock; when asked to wait, polls (cancellably) instead of blocking a thread.
  static func lock(_ directory: DataDirectory, wait: Bool) async throws -> UpdateLock {
    while true {
      let error: StoreError
      do {
        return try UpdateLock.acquire(directory)
      } catch let caught {
        error = caught
      }
      guard wait, case .updateRunning = error else { throw error }
      try await Task.sleep(for: .milliseconds(100))
    }
  }

  /// A source's copy that the profile compiles from.
  struct Input {
    var source: Source
    /// The copy, relative to the data directory.
    var file: String
    var sha256: String
    /// Its distinct names (sizes the merged set, so it rarely grows).
    var names: Int
    /// Its size: a bound on the bytes of its names (reserves the merged set's name bytes).
    var bytes: Int
  }

  /// Adds an input's names to the profile's merge: a new copy's names as parsed (then its work is
  /// finished: the copy's block set file written, its names counted), else its block set file
  /// (`Store.merge(copy:…)`, which compiles the copy now if the file is missing).
  private func add(
    _ input: Input, to merging: inout Compiler.Merging, works: inout [Int64: SourceWork], fetcher: SourceFetcher
  ) async throws -> (file: String, isNew: Bool)? {
    try Task.checkCancellation()
    do {
      if var work = works[input.source.id], let parsed = work.parsed.take() {
        let own = merging.add(parsed, name: input.source.key)
        let written = try fetcher.finish(&work, of: input.source, merged: own)
        works[input.source.id] = work
        return written
      }
      try await store.merge(
        copy: input.file, sha256: input.sha256, format: input.source.format, name: input.source.key,
        into: &merging, compiler: compiler)
      return nil
    } catch {
      if case .cancelled = error { throw CancellationError() }
      throw UpdateError.compile(error)
    }
  }

  /// Applies the rules to the merged set and writes the profile's block set file.
  private func finish(
    _ merging: consuming Compiler.Merging, rules: RuleSet, profile: Profile, fingerprint: String
  ) async throws -> CompiledProfile {
    let relative = "profiles/\(profile.id)-\(fingerprint.prefix(16)).blockset"
    let path = store.directory.file(relative).path
    do {
      let list = merging.finish(rules: rules)
      try Task.checkCancellation()
      // Without its lookup table (half the file): the readers that need one rebuild it. Flushed with the
      // copies before the commit.
      try list.writeArchive(to: path, fingerprint: fingerprint, withLookupTable: false, durability: .deferred)
      var counts: [String: Int] = [:]
      for report in list.ruleReports { counts[(report.allows ? "allow " : "deny ") + report.rule.text] = report.count }
      return CompiledProfile(
        profileID: profile.id, file: relative, sha256: fingerprint,
        names: list.count, fingerprint: fingerprint, compiledAt: Date(), ruleCounts: counts)
    } catch let error as CompileError {
      try? FileManager.default.removeItem(atPath: path)
      throw UpdateError.compile(error)
    } catch {
      try? FileManager.default.removeItem(atPath: path)
      throw error
    }
  }
}

extension Store {
  /// Removes what earlier runs left in the staging folder (only while holding the update lock).
  func removeStagingLeftovers() {
    let manager = FileManager.default
    for item in (try? manager.contentsOfDirectory(at: directory.staging, includingPropertiesForKeys: nil)) ?? [] {
      try? manager.removeItem(at: item)
    }
  }
}

extension Updater {
  /// Whether a profile's compiled list matches its current sources' copies and rules (false when it
  /// was never compiled, or a source or rule changed since).
  public static func isCompiledListCurrent(_ profile: Profile, in store: Store) throws(StoreError) -> Bool {
    try store.snapshot(of: profile.name).isCompiledListCurrent
  }
}
