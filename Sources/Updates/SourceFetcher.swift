import Blocklists
import Crypto
import Downloads
import Files
import Foundation
import Loading
import Locking
import Store

/// What fetching one source produced, waiting for the run's commit.
struct SourceWork: Sendable {
  var sourceID: Int64
  var outcome: SourceOutcome
  var update: SourceUpdate
  var result: UpdateRun.SourceResult
  /// The new copy, if the content changed.
  var copy: SourceUpdate.Copy?
  /// The new copy's names as parsed, until the run merges them into the profile (which counts the
  /// copy's distinct names, writes its block set file and finishes the source).
  var parsed: ParsedList?
  /// Files this run wrote into the list cache (relative paths).
  var createdFiles: [String]
  /// Files this fetch wrote with deferred durability (relative paths; new ones and a rewritten block set
  /// file): the run flushes them before its commit refers to them.
  var unflushedFiles: [String] = []
}

/// Runs one source through connect → download → parse → validate → save.
struct SourceFetcher: Sendable {
  let store: Store
  let client: any DownloadClient
  let compiler: Compiler
  let staging: URL
  let force: Bool
  /// Take a copy with fewer than half the names of the last good one instead of holding it back.
  let acceptShrink: Bool
  let events: @Sendable (UpdateEvent) -> Void

  /// Fetches a source through a `TaskLoader` that `cancellation` can cancel alone: the source then ends
  /// as failed with kind `cancelled`. Only cancelling the calling task throws.
  func fetch(_ source: Source, cancellation: SourceCancellation) async throws -> SourceWork {
    // The work as the fetch ended, even when a cancel came after its last check: the loader then settles
    // idle, and the files the fetch wrote must not be left behind.
    let finished = Locked<SourceWork?>(nil)
    let loader = TaskLoader {
      let work = try await fetch(source)
      finished.withLock { $0 = work }
      return work
    }
    // A new copy waits for its turn to be merged: it can be cancelled until the run takes it.
    let started = await cancellation.load(loader, as: source.key) {
      finished.withLock { $0?.parsed != nil }
    }
    if started, case .success(let work) = loader.currentState { return work }
    if let late = finished.withLock({ $0 }) { store.removeFiles(late.createdFiles) }
    try Task.checkCancellation()
    if started, case .failure(let failure) = loader.currentState { throw failure.error }
    // Ended cancelled though nobody cancelled this source: the run's own cancellation, which stops the
    // transfers (`DownloadManager.cancelAll`) before it cancels the tasks. Taken for this source's
    // cancel, it had the run go on and save the source as failed (a Ctrl-C under load exited 1, not 130).
    guard cancellation.wasCancelled(source.key) else { throw CancellationError() }
    return cancelled(source)
  }

  /// The work of a source cancelled alone: nothing of it is kept; its previous copy stays in use.
  func cancelled(_ source: Source) -> SourceWork {
    let failure = SourceFailure(
      kind: .cancelled, message: "\(source.key): cancelled.",
      suggestion: hasSavedCopy(source) ? "The previous copy is kept." : nil)
    events(.source(key: source.key, .done(.failed(failure))))
    return SourceWork(
      sourceID: source.id, outcome: .failed(failure),
      update: SourceUpdate(
        sourceID: source.id, attemptedAt: Date(), change: .failed(message: failure.text(withoutKey: source.key))),
      result: UpdateRun.SourceResult(
        key: source.key, status: .failed, message: failure.text, names: source.unique, bytesDownloaded: 0,
        seconds: 0),
      copy: nil, createdFiles: [])
  }

  /// Whether the source has a saved copy on disk.
  private func hasSavedCopy(_ source: Source) -> Bool {
    source.cacheFile.map { FileManager.default.fileExists(atPath: store.directory.file($0).path) } ?? false
  }

  /// The failures a mirror may not have: the list could not be fetched, or what came was no list.
  static let mirrorFixes: Set<SourceFailure.Kind> = [.download, .notAList, .noEntries, .unreadable]

  /// Fetches a source from its location, then, while that fails in a way a mirror may not
  /// (`mirrorFixes`), from each of its mirrors in order, with the same checks. The copy says which mirror
  /// it came from; when every one fails, the failure names each. Only cancellation throws.
  func fetch(_ source: Source) async throws -> SourceWork {
    let mirrors = (source.mirrors ?? []).compactMap { URL(string: $0) }
    var work = try await fetch(source, from: source.url, mirror: nil, announcesFailure: mirrors.isEmpty)
    guard !mirrors.isEmpty, case .failed(let first) = work.outcome, Self.mirrorFixes.contains(first.kind) else {
      return work
    }
    // Each place that failed, by its own message (which names its URL); the suggestion is said once.
    var failures = [first]
    for (index, mirror) in mirrors.enumerated() {
      try Task.checkCancellation()
      let host = mirror.host() ?? mirror.absoluteString
      events(
        .source(
          key: source.key,
          .retrying(
            attempt: index + 2, of: mirrors.count + 1, after: .zero,
            reason: "\(failures.last!.message(withoutKey: source.key).trimmingSuffix(".")); trying the mirror \(host)"))
      )
      let next = try await fetch(source, from: mirror, mirror: mirror.absoluteString, announcesFailure: false)
      guard case .failed(let failure) = next.outcome, Self.mirrorFixes.contains(failure.kind) else { return next }
      failures.append(failure)
      work = next
    }
    // Every place failed: one failure naming each (the source's own URL, then each mirror), announced once.
    let places = failures.enumerated().map { "(\($0.offset + 1)) \($0.element.message(withoutKey: source.key))" }
    let failure = SourceFailure(
      kind: failures.last!.kind,
      message: "\(source.key): its URL and every mirror failed: \(places.joined(separator: " "))",
      suggestion: failures.last!.suggestion)
    work.outcome = .failed(failure)
    work.update.change = .failed(message: failure.text(withoutKey: source.key))
    work.result.message = failure.message
    events(.source(key: source.key, .done(.failed(failure))))
    return work
  }

  /// Fetches a source from `url` (its location, or the mirror `mirror`). Every failure becomes a
  /// `.failed` outcome, announced unless `announcesFailure` is false (a mirror is tried next); only
  /// cancellation throws.
  func fetch(_ source: Source, from url: URL?, mirror: String?, announcesFailure: Bool) async throws -> SourceWork {
    var attempt = Attempt(source: source, mirror: mirror, announcesFailure: announcesFailure, events: events)
    try Task.checkCancellation()
    guard let url else {
      return attempt.fail(
        .download, "\(source.key): “\(source.location)” is not a valid URL.", "Remove and add the source again.")
    }
    let hasCopy = hasSavedCopy(source)
    var request = DownloadRequest(url: url)
    // Validators are the server's own: a mirror's ETag is not the primary's.
    if !force && hasCopy && mirror == source.servedFrom {
      request.validators = Validators(etag: source.etag, lastModified: source.lastModified)
    }
    let completed: CompletedDownload
    switch try await download(request, attempt: &attempt, hasCopy: hasCopy) {
    case .done(let work): return work
    case .next(let done): completed = done
    }
    let temporary = completed.fileURL
    defer { try? FileManager.default.removeItem(at: temporary) }
    try Task.checkCancellation()

    if !force, hasCopy, completed.sha256 == source.sha256 {
      return attempt.finish(
        .unchanged(.sameContent),
        change: .unchanged(etag: completed.etag, lastModified: completed.lastModified, servedFrom: mirror))
    }
    let list: ParsedList
    switch try await parse(temporary, attempt: attempt) {
    case .done(let work): return work
    case .next(let parsed): list = parsed
    }
    try Task.checkCancellation()
    if let failure = validate(list, attempt: attempt, hasCopy: hasCopy) { return failure }
    try Task.checkCancellation()
    return try save(completed, list: list, attempt: attempt, hasCopy: hasCopy)
  }

  /// What a step of `fetch` gives: its result for the next step, or the source's work, done.
  enum Step<Value> {
    case next(Value)
    case done(SourceWork)
  }

  /// Connects and downloads, reporting progress; a 304, a failure or a download without a result ends
  /// the source here.
  private func download(_ request: DownloadRequest, attempt: inout Attempt, hasCopy: Bool) async throws -> Step<
    CompletedDownload
  > {
    var completed: CompletedDownload?
    let source = attempt.source
    for await event in client.download(request) {
      switch event {
      case .connecting(let number):
        attempt.emit(.connecting(attempt: number))
      case .progress(let progress):
        attempt.downloaded = progress.bytesReceived
        attempt.emit(.downloading(bytes: progress.bytesReceived, total: progress.totalBytes))
      case .retrying(let number, let total, let delay, let reason):
        attempt.emit(.retrying(attempt: number, of: total, after: delay, reason: reason.localizedDescription))
      case .completed(let done):
        completed = done
        attempt.downloaded = done.byteCount
      case .notModified(let answer):
        try Task.checkCancellation()
        return .done(
          attempt.finish(
            .unchanged(.notModified),
            change: .unchanged(
              etag: answer.validators.etag, lastModified: answer.validators.lastModified,
              servedFrom: attempt.mirror)))
      case .failed(let error):
        try Task.checkCancellation()
        if case .cancelled = error { throw CancellationError() }
        return .done(
          attempt.fail(
            .download, "\(source.key): \(error.localizedDescription)",
            [error.recoverySuggestion, hasCopy ? "The previous copy is kept." : nil].compactMap { $0 }.joined(
              separator: " ")))
      }
    }
    guard let completed else {
      try Task.checkCancellation()
      return .done(attempt.fail(.download, "\(source.key): the download ended without a result.", "Try again."))
    }
    return .next(completed)
  }

  /// Parses the download, without a set: the run inserts the names once, into the profile's.
  private func parse(_ file: URL, attempt: Attempt) async throws -> Step<ParsedList> {
    let source = attempt.source
    attempt.emit(.parsing(lines: 0, names: 0))
    do {
      var listSource = ListSource.file(file.path, format: source.format)
      listSource.name = source.key
      let events = events
      let key = source.key
      return .next(
        try await compiler.parse(listSource) { progress in
          events(.source(key: key, .parsing(lines: progress.lines, names: progress.uniqueNames)))
        })
    } catch {
      if case .cancelled = error { throw CancellationError() }
      try Task.checkCancellation()
      return .done(attempt.fail(.unreadable, "\(source.key): \(error.localizedDescription)", error.recoverySuggestion))
    }
  }

  /// The failure of a download that is no list (a web page, binary data) or holds no valid entry; nil
  /// when it is a list.
  private func validate(_ list: ParsedList, attempt: Attempt, hasCopy: Bool) -> SourceWork? {
    let source = attempt.source
    attempt.emit(.validating)
    let report = list.report
    if let content = report.findings.content {
      return attempt.fail(
        .notAList, "\(source.key): the download \(content.advice).",
        // The advice already says what to do (it was said twice).
        hasCopy ? "The previous copy is kept." : nil)
    }
    // A list of subdomains-only blocks (`||*.name^`) alone has entries though it names no name.
    guard list.names > 0 || !(report.findings.subdomainBlocks ?? []).isEmpty else {
      let findings = report.findings
      let reasons = findings.rejected.sorted { ($0.value, $1.key.rawValue) > ($1.value, $0.key.rawValue) }.prefix(3)
        .map { "\($0.value) \($0.key.summary)" }.joined(separator: ", ")
      return attempt.fail(
        .noEntries,
        "\(source.key): no valid entries in \(findings.lines) lines\(reasons.isEmpty ? "" : " (rejected: \(reasons))").",
        "Make sure the URL points to a hosts file or domain list\(hasCopy ? "; the previous copy is kept" : "").")
    }
    return nil
  }

  /// Keeps the copy under a name of its own, held back instead when it shrank suspiciously. Its own names
  /// are written beside it when the run merges them (`finish(_:of:merged:)`), and the profile's compile
  /// merges that file next time instead of parsing the copy again.
  private func save(_ completed: CompletedDownload, list: ParsedList, attempt: Attempt, hasCopy: Bool) throws
    -> SourceWork
  {
    let (source, mirror, report) = (attempt.source, attempt.mirror, list.report)
    // A copy with fewer than half the names of the last good one (lists have lost millions of lines
    // overnight) is held back, unless accepted: kept beside the good copy, which stays in use.
    let previousNames = source.accepted ?? 0
    let shrinks =
      !acceptShrink && hasCopy && previousNames >= 2 && list.names * 2 < previousNames
      && completed.sha256 != source.sha256

    // Save: keep the copy under a name of its own. Its own names are written beside it when the run
    // merges them (`finish(_:of:merged:)`), and the profile's compile merges that file next time
    // instead of parsing the copy again.
    attempt.emit(.saving)
    let cacheFile = "lists/\(source.key)-\(completed.sha256.prefix(16)).list"
    let cacheURL = store.directory.file(cacheFile)
    var created: [String] = []
    var written: [String] = []
    do {
      // Flushed to disk by the run, all at once, before its commit refers to them.
      if !FileManager.default.fileExists(atPath: cacheURL.path) {
        try completed.install(at: cacheURL, durability: .deferred)
        created.append(cacheFile)
        written.append(cacheFile)
      }
    } catch {
      store.removeFiles(created)
      return attempt.fail(
        .unreadable, "\(source.key): the copy could not be saved: \(error.localizedDescription)",
        "Check free space and permissions in \(store.directory.url.path).")
    }
    if Task.isCancelled {
      store.removeFiles(created)
      throw CancellationError()
    }
    let findings = report.findings
    // Its distinct names are counted when the run merges it.
    var copy = SourceUpdate.Copy(
      etag: completed.etag, lastModified: completed.lastModified, sha256: completed.sha256, cacheFile: cacheFile,
      bytes: completed.byteCount, accepted: findings.names, unique: 0, duplicates: 0,
      rejected: findings.totalRejected, detectedFormat: report.format, findings: findings,
      headerDate: Self.headerDate(of: cacheURL))
    copy.servedFrom = mirror
    if shrinks {
      let drop = Double(previousNames - list.names) / Double(previousNames) * 100
      let failure = SourceFailure(
        kind: .suspiciousShrink,
        message:
          "\(source.key): suspicious shrink: the new copy has \(list.names.counted("name")), the last good one \(previousNames.grouped) (\(String(format: "%.1f", drop)) % fewer); it is held back and the previous copy stays in use.",
        suggestion:
          "Compare them with `sanehosts sources diff \(source.key) --held`; take it with `sanehosts sources accept \(source.key)` or `sanehosts update --accept-shrink`."
      )
      return attempt.finish(
        .failed(failure), change: .held(copy, message: failure.text(withoutKey: source.key)), created: created,
        written: written)
    }
    var work = attempt.finish(
      .updated(names: 0, rejected: findings.totalRejected, bytes: completed.byteCount), change: .updated(copy),
      copy: copy, created: created, written: written, announce: false)
    work.parsed = list
    return work
  }

  /// Finishes a new copy's work once the run has merged its names (`own`, the copy's distinct names):
  /// writes them as the copy's block set file, counts them, and reports the source done. Returns the
  /// file written (relative, flushed by the run) and whether this wrote it first.
  func finish(_ work: inout SourceWork, of source: Source, merged own: CopyNames) throws(CompileError) -> (
    file: String, isNew: Bool
  )? {
    guard var copy = work.copy else { return nil }
    let listFile = Store.listFile(forCopy: copy.cacheFile)
    let path = store.directory.file(listFile).path
    let existed = FileManager.default.fileExists(atPath: path)
    try own.writeArchive(
      to: path, fingerprint: Store.copyFingerprint(sha256: copy.sha256, format: source.format), durability: .deferred)
    copy.unique = own.count
    copy.duplicates = own.report.duplicates
    work.copy = copy
    work.update.change = .updated(copy)
    work.result.names = own.count
    work.outcome = .updated(names: own.count, rejected: copy.rejected, bytes: copy.bytes)
    work.parsed = nil
    events(.source(key: source.key, .done(work.outcome)))
    return (listFile, !existed)
  }

  /// The date a copy's own header gives, read from its first 16 KiB.
  static func headerDate(of file: URL) -> Date? {
    guard let handle = try? FileHandle(forReadingFrom: file) else { return nil }
    defer { try? handle.close() }
    return (try? handle.read(upToCount: 16 * 1024)).flatMap { $0.map { ListDate.find(in: $0) } ?? nil }
  }

  /// The SHA-256 of a file, in lowercase hex.
  static func sha256(of file: URL) throws -> String {
    let data = try Data(contentsOf: file, options: .alwaysMapped)
    return SHA256.hash(data: data).hexString
  }
}

/// One attempt at a source from one URL: what `SourceFetcher.fetch` reports as it goes, and the work it
/// returns however it ends.
struct Attempt {
  let source: Source
  /// The mirror fetched from (nil: the source's own URL).
  let mirror: String?
  /// Whether a failure is announced (not when a mirror is tried next).
  let announcesFailure: Bool
  let events: @Sendable (UpdateEvent) -> Void
  let started = ContinuousClock.now
  let attemptedAt = Date()
  /// The bytes downloaded so far.
  var downloaded: Int64 = 0

  /// Reports a phase of the source.
  func emit(_ phase: SourcePhase) { events(.source(key: source.key, phase)) }

  /// The source's work with `outcome`, announced unless told not to.
  func finish(
    _ outcome: SourceOutcome, change: SourceUpdate.Change, copy: SourceUpdate.Copy? = nil, created: [String] = [],
    written: [String] = [], announce: Bool = true
  ) -> SourceWork {
    if announce { emit(.done(outcome)) }
    let message: String? =
      switch outcome {
      case .failed(let failure): failure.text
      case .unchanged(let reason): reason == .notModified ? "not modified" : "same content"
      case .updated: nil
      }
    let status: Source.Status =
      switch outcome {
      case .updated: .updated
      case .unchanged: .unchanged
      case .failed: .failed
      }
    let seconds = (ContinuousClock.now - started).secondsValue
    return SourceWork(
      sourceID: source.id, outcome: outcome,
      update: SourceUpdate(sourceID: source.id, attemptedAt: attemptedAt, change: change),
      result: UpdateRun.SourceResult(
        key: source.key, status: status, message: message, names: copy?.unique ?? source.unique,
        bytesDownloaded: downloaded, seconds: seconds),
      copy: copy, createdFiles: created, unflushedFiles: written)
  }

  /// The source's work as a failure of `kind`.
  func fail(_ kind: SourceFailure.Kind, _ message: String, _ suggestion: String?) -> SourceWork {
    let failure = SourceFailure(kind: kind, message: message, suggestion: suggestion)
    // Stored without a leading "KEY: ": every place that shows it (status, sync) names the source itself.
    return finish(
      .failed(failure), change: .failed(message: failure.text(withoutKey: source.key)), announce: announcesFailure)
  }
}

extension String {
  /// The text without one trailing `suffix`.
  func trimmingSuffix(_ suffix: String) -> String { hasSuffix(suffix) ? String(dropLast(suffix.count)) : self }

}
