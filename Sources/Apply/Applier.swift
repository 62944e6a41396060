import Blocklists
import DNS
import Files
import Foundation
import Store

#if canImport(Glibc)
  import Glibc
#endif

/// Applies a profile to a hosts file or a DNS server drop-in: compile, render, validate, check, back up, write, reload.
///
/// The one place both the command line (`sanehosts apply`) and the dashboard apply a profile, so they
/// validate, check and write exactly the same way. Nothing is printed: the result carries the warnings
/// and the prepared change (for a diff).
public struct Applier: Sendable {
  /// What to apply, and how (kept in the ledger as its `Ledger.Recipe`).
  public struct Options: Sendable, Hashable, Codable {
    /// The profile (nil: the active one).
    public var profile: String?
    /// A DNS server drop-in, or nil for the hosts file's managed section.
    public var server: ServerTarget?
    /// The address for blocked names in a hosts file.
    public var address: Renderer.HostsAddress
    /// Names per hosts line.
    public var namesPerLine: Int
    /// Prepare and report, write nothing.
    public var dryRun: Bool
    /// Replace the section even when someone else edited it.
    public var force: Bool
    /// Run the server's configuration checker on a drop-in first.
    public var check: Bool
    /// After writing a drop-in, reload the server this way (nil: do not reload).
    public var reload: ReloadMethod?
    /// After writing the hosts file, flush the DNS caches that run.
    public var flush: Bool
    /// A verification of the server's answers follows: a reload alone does not confirm the file loaded
    /// (the verification does, when it passes), and the changes since the state last confirmed loaded are
    /// prepared for it (`Applied.sinceLoaded`).
    public var verify: Bool
    /// Make this machine's BIND the fleet's primary (`--transfer-to`): the zone goes to it as signed
    /// updates instead of a reload (BIND target only).
    public var primary: PrimarySetup?

    /// Creates options; the defaults apply the active profile to the hosts file with 0.0.0.0.
    public init(
      profile: String? = nil, server: ServerTarget? = nil, address: Renderer.HostsAddress = .ipv4,
      namesPerLine: Int = 1, dryRun: Bool = false, force: Bool = false, check: Bool = true,
      reload: ReloadMethod? = nil, flush: Bool = false, verify: Bool = false, primary: PrimarySetup? = nil
    ) {
      self.verify = verify
      self.primary = primary
      self.profile = profile
      self.server = server
      self.address = address
      self.namesPerLine = namesPerLine
      self.dryRun = dryRun
      self.force = force
      self.check = check
      self.reload = reload
      self.flush = flush
    }
  }

  /// What an apply did (or, on a dry run, would do).
  public struct Result: Sendable, Encodable {
    /// `hosts` or the server target's name.
    public var target: String
    /// The file.
    public var path: String
    /// The profile applied.
    public var profile: String
    /// Names in the profile.
    public var names: Int
    /// Entries added.
    public var added: Int
    /// Entries removed.
    public var removed: Int
    /// Whether the file was written.
    public var wrote: Bool
    /// Whether this was a dry run.
    public var dryRun: Bool
    /// The backup of the previous file.
    public var backup: String?
    /// Whether the file was rewritten in place (a mount point), which is not atomic.
    public var inPlace: Bool
    /// The configuration checker's verdict.
    public var check: String?
    /// How the server was reloaded.
    public var reloaded: String?
    /// The caches flushed.
    public var flushed: [String]?
    /// The flush in one line (what was flushed, or that no cache runs).
    public var flushSummary: String?
    /// The lookup time of a name at the end of /etc/hosts, when measured by the caller.
    public var lookupMicroseconds: Int?
    /// Warnings and notes (in JSON, each a sentence).
    public var warnings: [ApplyWarning]
    /// Whether the file's first write needs a line in the server's configuration (see `instructions`).
    public var firstWrite: Bool
    /// For a drop-in: the line to add to the server's configuration, once.
    public var instructions: String?

    /// Creates a result (normally made by `apply`).
    public init(
      target: String, path: String, profile: String, names: Int, added: Int, removed: Int, wrote: Bool,
      dryRun: Bool, backup: String?, inPlace: Bool, check: String?, reloaded: String?, flushed: [String]?,
      flushSummary: String?, lookupMicroseconds: Int?, warnings: [ApplyWarning], firstWrite: Bool, instructions: String?
    ) {
      self.target = target
      self.path = path
      self.profile = profile
      self.names = names
      self.added = added
      self.removed = removed
      self.wrote = wrote
      self.dryRun = dryRun
      self.backup = backup
      self.inPlace = inPlace
      self.check = check
      self.reloaded = reloaded
      self.flushed = flushed
      self.flushSummary = flushSummary
      self.lookupMicroseconds = lookupMicroseconds
      self.warnings = warnings
      self.firstWrite = firstWrite
      self.instructions = instructions
    }
  }

  /// An apply's result, with the prepared change and a reload failure (the file was written regardless).
  public struct Applied: Sendable {
    /// The result.
    public var result: Result
    /// The change that was (or would be) written.
    public var change: ManagedFile.Change
    /// Set when the file was written but the reload failed.
    public var reloadFailure: (any Error)?
    /// The lines of the hosts section (for measuring the lookup time of its last name).
    public var lastName: String?
    /// The names applied, when they were loaded (a file found already holding them loads none).
    public var list: CompiledList?
    /// What the names are compiled from, to load them when `list` is nil.
    public var plan: ProfileList.Plan
    /// Whether the file's format blocks subdomains too (public suffixes are then left out of it).
    public var coversSubdomains: Bool
    /// The file applied to, with its ledger.
    public var file: ManagedFile
    /// For a drop-in with `Options.verify`: how the file now differs from the state its server last
    /// confirmed loading (else from the first state written): every change a verification must see, not
    /// only this apply's. Nil without a kept copy of that state.
    public var sinceLoaded: ManagedFile.Change?
    /// For a drop-in the server has not confirmed loading as written, and that this apply did not reload:
    /// when it was written.
    public var writtenNotLoaded: Date?
    /// For the fleet's primary (`Options.primary`): what was sent to it and the serial it answered.
    public var pushed: PrimaryPush.Outcome?

    /// The change a verification checks: since the state last confirmed loaded, else this apply's.
    public var verifiedChange: ManagedFile.Change { sinceLoaded ?? change }

    /// Records that the server answers as the file says (a verification passed): the file as it is now
    /// becomes the state last confirmed loaded.
    public func confirmLoaded() throws(StagedFile.Failure) {
      guard result.target != "hosts", !result.dryRun, let bytes = change.after ?? change.before else { return }
      try file.ledger.confirmLoaded(bytes, for: file.path)
    }

    /// The names whose block entries this apply added to the file (exceptions and the RPZ header are
    /// not blocks): `--verify` checks these first, since a reload that did not happen shows in them.
    public var addedNames: [String] {
      let text = verifiedChange.added.filter { !ServerTarget.isVolatile($0) }.joined(separator: "\n")
      var parser = LineParser(format: nil)
      Array(text.utf8).withUnsafeBufferPointer { parser.parse(buffer: $0) }
      var seen: Set<String> = []
      return parser.finish().names.filter { seen.insert($0).inserted }
    }

    /// The names whose block entries this apply took out of the file and that nothing in it blocks now
    /// (not written again, and in a covering format no parent written): `--verify` checks them unblocked.
    /// `applied` is every name the file blocks (`verifiable`).
    public func removedNames(applied: [String]) -> [String] {
      let text = verifiedChange.removed.filter { !ServerTarget.isVolatile($0) }.joined(separator: "\n")
      var parser = LineParser(format: nil)
      Array(text.utf8).withUnsafeBufferPointer { parser.parse(buffer: $0) }
      let blocked = Set(applied)
      var seen: Set<String> = []
      return parser.finish().names.filter { name in
        guard seen.insert(name).inserted, !blocked.contains(name) else { return false }
        return !coversSubdomains || !NameRules.parents(of: name).contains(where: blocked.contains)
      }
    }

    /// The names this apply let through under a blocked parent: the exceptions it added for the name itself
    /// (`server=/a/#`, a transparent zone without null data, `a CNAME rpz-passthru.`); `--verify` checks
    /// each is not blocked.
    public var allowedNames: [String] {
      let added = verifiedChange.added
      var names: [String] = []
      for line in added {
        if line.hasPrefix("server=/"), line.hasSuffix("/#"), !line.hasPrefix("server=/*.") {
          names.append(String(line.dropFirst(8).dropLast(2)))
        } else if line.hasPrefix("local-zone: \""), line.hasSuffix(".\" transparent") {
          let name = String(line.dropFirst(13).dropLast(14))
          // With null data for the name itself it is a `*.name` exception: the name stays blocked.
          if !added.contains("local-data: \"\(name). A 0.0.0.0\"") { names.append(name) }
        } else if line.hasSuffix(" CNAME rpz-passthru."), !line.hasPrefix("*.") {
          names.append(String(line.dropLast(20)))
        }
      }
      return names
    }

    /// The names the file blocks, to sample for a verification: the profile's names less any public
    /// suffix a format covering subdomains leaves out.
    public func verifiable(in store: Store) async throws -> [String] {
      let names: [String]
      if let list {
        names = list.allNames
      } else {
        names = try await plan.load(from: store).list.allNames
      }
      guard coversSubdomains else { return names }
      return names.filter { !PublicSuffixList.bundled.isPublicSuffix($0) }
    }
  }

  /// The store holding the profile.
  public let store: Store
  /// The file to change.
  public let file: ManagedFile
  /// Runs checkers and reloads.
  public var runner: ProcessRunner

  /// Creates an applier for a file.
  /// A dry run that previews what another, privileged process will write (the dashboard asking the
  /// package's root unit): this process need not be able to write the file.
  public var previewForAnother = false

  public init(store: Store, file: ManagedFile, runner: ProcessRunner = ProcessRunner()) {
    self.store = store
    self.file = file
    self.runner = runner
  }

  /// Compiles the profile and applies it.
  public func apply(_ options: Options) async throws -> Applied {
    // A reload that cannot work (a process that is not the server) is refused before anything is
    // written, on a dry run too.
    try options.reload?.precheck()
    let folder = try Self.checkDestination(
      file, dropIn: options.server != nil, dryRun: options.dryRun, writable: !(options.dryRun && previewForAnother))
    // The names are loaded only when something is rendered (or their count is not known).
    let plan = try ProfileList.plan(profile: options.profile, in: store)
    let warnings = plan.missing.map { ApplyWarning.notDownloaded(source: $0) } + (folder.map { [$0] } ?? [])
    if let server = options.server {
      return try await applyToServer(server, plan: plan, options: options, warnings: warnings)
    }
    return try await applyToHosts(plan: plan, options: options, warnings: warnings)
  }

  private func applyToHosts(plan: ProfileList.Plan, options: Options, warnings: [ApplyWarning]) async throws -> Applied
  {
    var warnings = warnings
    let content = "\(plan.fingerprint) hosts \(options.address) \(options.namesPerLine)"
    let change: ManagedFile.Change
    let lastName: String?
    var list: CompiledList?
    if let bytes = try file.unchanged(content: content) {
      // The file holds exactly what this would write: nothing to load, render, check or compare.
      change = .none(path: file.path, bytes: bytes)
      lastName = HostsSection.lastName(in: bytes)
    } else {
      let set = try await plan.load(from: store)
      list = set.list
      let body = try await HostsSection.body(
        for: set.list, profile: set.profile.name, address: options.address, namesPerLine: options.namesPerLine)
      if let bad = HostsSection.firstInvalidLine(body: body) {
        throw ApplyError.invalidOutput(
          path: file.path, reason: "line \(bad.line) of the section would not parse: \(bad.text)")
      }
      change = try file.prepare(body: body)
      lastName = HostsSection.lastName(in: body)
    }
    let names = try await count(&list, plan: plan)
    if options.dryRun { try file.checkCommit(change, force: options.force) }
    if let drift = change.drift { warnings.append(.drift(drift, path: file.path)) }
    if let list { warnings += Self.subdomainWarnings(list, format: .hosts, server: "a hosts file") }
    if names > HostsSection.adviceThreshold {
      warnings.append(.largeHostsFile(names: names))
    }
    var outcome = ManagedFile.Outcome()
    var flushed: [String]?
    var flushSummary: String?
    if !options.dryRun {
      outcome = try file.commit(
        change, profile: plan.profile.name, names: names, target: "hosts", force: options.force, content: content)
      try? file.ledger.recordRules(plan.appliedRules, for: file.path)
      if outcome.inPlace {
        warnings.append(.rewrittenInPlace(path: file.path, backup: outcome.backup?.id))
      }
      if options.flush {
        let report = await CacheFlusher().flush()
        flushed = report.flushed
        flushSummary = report.summary
        warnings += report.failed.map { ApplyWarning.flushFailed(cache: $0) }
      }
    }
    let result = Result(
      target: "hosts", path: file.path, profile: plan.profile.name, names: names,
      added: change.addedLines.count, removed: change.removedLines.count, wrote: outcome.wrote, dryRun: options.dryRun,
      backup: outcome.backup?.id,
      inPlace: outcome.inPlace, check: nil, reloaded: nil, flushed: flushed, flushSummary: flushSummary,
      lookupMicroseconds: nil,
      warnings: warnings, firstWrite: false, instructions: nil)
    return Applied(
      result: result, change: change, reloadFailure: nil, lastName: lastName, list: list, plan: plan,
      coversSubdomains: false, file: file)
  }

  /// A note when the profile has subdomains-only blocks (`*.name`, `||*.name^`) the format cannot say:
  /// they are left out rather than widened to the name itself.
  static func subdomainWarnings(_ list: CompiledList, format: OutputFormat, server: String) -> [ApplyWarning] {
    let unexpressed = list.subdomainBlocks(for: format).unexpressed
    guard !unexpressed.isEmpty else { return [] }
    let samples = unexpressed.prefix(3).map { "*.\($0)" }.joined(separator: ", ")
    return [
      .cannotBlock(
        server: server,
        what:
          "\(unexpressed.count) subdomains-only block\(unexpressed.count == 1 ? "" : "s") (\(samples)) left out, as blocking the name itself would over-block; the dnsmasq and RPZ targets write them"
      )
    ]
  }

  /// How many names the profile blocks: the loaded list's count, else the current compile's, else the
  /// list loaded now.
  private func count(_ list: inout CompiledList?, plan: ProfileList.Plan) async throws -> Int {
    if let list { return list.count }
    if let names = plan.names { return names }
    let loaded = try await plan.load(from: store).list
    list = loaded
    return loaded.count
  }

  private func applyToServer(
    _ server: ServerTarget, plan: ProfileList.Plan, options: Options, warnings: [ApplyWarning]
  ) async throws -> Applied {
    var warnings = warnings
    let content = "\(plan.fingerprint) \(server.rawValue) drop-in \(ServerTarget.dropInVersion)"
    let prepared = try await prepare(server, plan: plan, options: options, content: content)
    let change = prepared.change
    var (list, check, digests) = (prepared.list, prepared.check, prepared.digests)
    let names = try await count(&list, plan: plan)
    if options.dryRun { try file.checkCommit(change, force: options.force) }
    if let drift = change.drift { warnings.append(.drift(drift, path: file.path)) }
    warnings += server.leaks.map { ApplyWarning.cannotBlock(server: server.server, what: $0) }
    if let list { warnings += Self.subdomainWarnings(list, format: server.format, server: server.server) }
    if let former = server.kind.formerOutput, file.path != former, file.ledger.entry(for: former) != nil,
      FileManager.default.fileExists(atPath: former)
    {
      warnings.append(.formerDropIn(path: former))
    }
    // The header's date (and the RPZ serial) change every time: only the entries decide.
    let entriesChanged =
      change.before == nil || change.addedEntryCount(skipping: ServerTarget.isVolatile(bytes:)) > 0
      || change.removedEntryCount(skipping: ServerTarget.isVolatile(bytes:)) > 0
    if entriesChanged {
      if case .failed = check {
        throw ApplyError.invalidOutput(path: file.path, reason: check!.summary)
      }
      if let check, case .unavailable = check { warnings.append(.notChecked(check)) }
    } else {
      // Nothing to write: as if not checked.
      check = nil
      digests = nil
    }
    let (outcome, reloaded, reloadFailure, pushed) = try await commit(
      change, server: server, plan: plan, options: options, names: names, entriesChanged: entriesChanged,
      content: content, digests: digests, warnings: &warnings)
    let entry = file.ledger.entry(for: file.path)
    var sinceLoaded: ManagedFile.Change?
    if options.verify, !options.dryRun, let current = change.after ?? change.before,
      let baseline = file.ledger.loadedCopy(for: file.path)
    {
      sinceLoaded = file.difference(from: baseline, to: current)
    }
    if !options.dryRun { try Self.writeLoader(for: server, output: file.path) }
    let result = Result(
      target: server.rawValue, path: file.path, profile: plan.profile.name, names: names,
      added: change.addedEntryCount(skipping: ServerTarget.isVolatile(bytes:)),
      removed: change.removedEntryCount(skipping: ServerTarget.isVolatile(bytes:)), wrote: outcome.wrote,
      dryRun: options.dryRun, backup: outcome.backup?.id, inPlace: outcome.inPlace, check: check?.summary,
      reloaded: reloaded, flushed: nil, flushSummary: nil, lookupMicroseconds: nil, warnings: warnings,
      firstWrite: change.before == nil && outcome.wrote, instructions: server.instructions(output: file.path))
    let notLoaded = reloaded == nil && !options.dryRun && entry.map { !$0.isLoaded } ?? false
    var applied = Applied(
      result: result, change: change, reloadFailure: reloadFailure, lastName: nil, list: list, plan: plan,
      coversSubdomains: server.format.coversSubdomains, file: file, sinceLoaded: sinceLoaded,
      writtenNotLoaded: notLoaded ? entry?.date : nil)
    applied.pushed = pushed
    return applied
  }

  /// A drop-in about to be written: its change, and what was loaded, checked and hashed on the way.
  private struct PreparedDropIn {
    var change: ManagedFile.Change
    var list: CompiledList?
    var check: ConfigCheck?
    var digests: ManagedFile.Digests?
  }

  /// Renders the drop-in, unless the file already holds exactly these entries, and checks it with the
  /// server's checker while it is compared with the old file and hashed.
  private func prepare(_ server: ServerTarget, plan: ProfileList.Plan, options: Options, content: String) async throws
    -> PreparedDropIn
  {
    if let current = try file.unchanged(content: content) {
      // The drop-in holds exactly these entries: nothing to load, render, check or compare.
      return PreparedDropIn(change: .none(path: file.path, bytes: current))
    }
    let set = try await plan.load(from: store)
    // The zone's serial goes past the one it replaces (a secondary transfers only a greater serial).
    let previous = server.isRPZ ? ZoneSerial.read(path: file.path) : nil
    let rendered = try await server.render(
      set.list, title: "SaneHosts profile \(plan.profile.name)", date: Date(), previous: previous)
    // The fleet's primary takes the change as updates, each checked by BIND itself: the file is loaded
    // only as the first copy, so only then is the server's checker worth its seconds (2.5 s on 416,000 names).
    let seeded =
      options.primary != nil && FileManager.default.fileExists(atPath: PrimarySetup.zoneFilePath(output: file.path))
    guard options.check, !seeded else {
      return PreparedDropIn(change: try file.prepare(contents: rendered), list: set.list)
    }
    // The checker (a process of its own) runs while the file is compared with the old one and hashed
    // for the ledger: on a first drop-in the comparison alone took 20 ms, the hashing 8. Its verdict
    // counts only if the entries changed.
    let file = self.file
    let runner = self.runner
    async let checked = Self.check(rendered, as: server, runner: runner)
    async let hashed = file.digests(rendered)
    let change = try file.prepare(contents: rendered)
    return PreparedDropIn(change: change, list: set.list, check: try await checked, digests: await hashed)
  }

  /// Writes the change (when the entries changed) and reloads the server whenever `--reload` asks
  /// (the file changed or not: a server that never loaded it, or one reloaded by someone else, is told
  /// again); returns what was written, how it was reloaded, and a reload's failure. A reload that
  /// succeeded confirms the file loaded, unless a verification follows to confirm it from the answers.
  private func commit(
    _ change: ManagedFile.Change, server: ServerTarget, plan: ProfileList.Plan, options: Options, names: Int,
    entriesChanged: Bool, content: String, digests: ManagedFile.Digests?, warnings: inout [ApplyWarning]
  ) async throws -> (ManagedFile.Outcome, String?, (any Error)?, PrimaryPush.Outcome?) {
    var outcome = ManagedFile.Outcome()
    guard !options.dryRun else { return (outcome, nil, nil, nil) }
    // What the server runs before this write, as far as is known: the copy kept when it last confirmed
    // loading, else the file as it is (kept once, as the baseline later verifications compare with).
    if let baseline = change.before ?? change.after { file.ledger.keepBaseline(baseline, for: file.path) }
    if entriesChanged {
      outcome = try file.commit(
        change, profile: plan.profile.name, names: names, target: server.rawValue, force: options.force,
        content: content, digests: digests)
    }
    // The rules the file holds (an unchanged file holds the same profile's content: the same rules).
    try? file.ledger.recordRules(plan.appliedRules, for: file.path)
    if let primary = options.primary, let bytes = change.after ?? change.before {
      let zone = primary.zone(output: file.path)
      let configuration = PrimarySetup.configurationPath(output: file.path)
      let existed = FileManager.default.fileExists(atPath: configuration)
      do {
        if try PrimarySetup.write(zone, output: file.path, seed: bytes), existed {
          warnings.append(.primaryReconfigure(path: configuration))
        }
      } catch {
        throw ApplyError.from(error)
      }
      do {
        let pushed = try await push(bytes, change: change, zone: zone, to: primary)
        return (outcome, pushed.summary, nil, pushed)
      } catch {
        warnings.append(.pushFailed(path: file.path, primary: primary.address.description))
        return (outcome, nil, error, nil)
      }
    }
    guard let method = options.reload else { return (outcome, nil, nil, nil) }
    var reloaded: String?
    var reloadFailure: (any Error)?
    do {
      reloaded = try await method.perform(runner: runner)
      if !entriesChanged { reloaded! += " (the file was unchanged: reloaded as asked)" }
    } catch {
      reloadFailure = error
      warnings.append(.reloadFailed(path: file.path, server: server.server))
    }
    if reloadFailure == nil, !options.verify, let bytes = change.after ?? change.before {
      try? file.ledger.confirmLoaded(bytes, for: file.path)
    }
    return (outcome, reloaded, reloadFailure, nil)
  }

  /// Sends the zone's change to the primary; returns what was sent. The primary's answer (its new
  /// serial) confirms the copy.
  private func push(_ bytes: [UInt8], change: ManagedFile.Change, zone: PrimaryZone, to setup: PrimarySetup)
    async throws -> PrimaryPush.Outcome
  {
    let entry = file.ledger.entry(for: file.path)
    let confirmed = file.ledger.loadedCopy(for: file.path).flatMap { copy in
      entry?.primarySerial.map { (bytes: copy, serial: $0) }
    }
    // The change found while preparing is the update when the file as it was is the confirmed copy.
    var lines: (removed: [String], added: [String])?
    if let copy = confirmed?.bytes {
      if copy == bytes {
        lines = ([], [])
      } else if copy == change.before, change.after == bytes {
        lines = (change.removed, change.added)
      }
    }
    let outcome = try await PrimaryPush(primary: setup.address, key: zone.updateKey).push(
      bytes, confirmed: confirmed, lines: lines)
    try file.ledger.confirmLoaded(bytes, for: file.path, primarySerial: outcome.serial)
    return outcome
  }

  /// Writes the Lua file that loads the zone (PowerDNS Recursor, Knot Resolver) when it is missing or
  /// different, atomically.
  static func writeLoader(for server: ServerTarget, output: String) throws {
    let absolute = output.hasPrefix("/") ? output : FileManager.default.currentDirectoryPath + "/" + output
    guard let path = server.loaderPath(output: absolute), let text = server.loader(output: absolute) else { return }
    let bytes = Array(text.utf8)
    if let existing = FileManager.default.contents(atPath: path), Array(existing) == bytes { return }
    do {
      try StagedFile.replace(path, with: bytes)
    } catch {
      throw ApplyError.from(error)
    }
  }

  /// Runs the server's checker on the bytes in a scratch file.
  public static func check(_ bytes: [UInt8], as server: ServerTarget, runner: ProcessRunner = ProcessRunner())
    async throws -> ConfigCheck
  {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("sanehosts-check-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let path = scratch.appendingPathComponent(server.isRPZ ? "db.sanehosts.rpz" : "sanehosts.conf").path
    // A scratch copy, deleted after the check: written without the flush to disk `Data.write` does
    // (5 ms and more for a 6 MB drop-in, on the way of every checked apply).
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw ApplyError.writeFailed(path: path, detail: String(cString: strerror(errno)))
    }
    defer { close(descriptor) }
    let failure = bytes.withUnsafeBytes { StagedFile.writeAll($0, to: descriptor) }
    guard failure == 0 else { throw ApplyError.writeFailed(path: path, detail: String(cString: strerror(failure))) }
    return await server.check(path, runner: runner)
  }

  /// The checks before anything is written, the same on a dry run (which refuses where the real run
  /// would): the file's folder exists and this user may replace the file. A drop-in's missing folder is
  /// created (a dry run says it would be): the note says so.
  public static func checkDestination(_ file: ManagedFile, dropIn: Bool, dryRun: Bool, writable: Bool = true) throws
    -> ApplyWarning?
  {
    var note: ApplyWarning?
    if dropIn {
      let parent = (Ledger.key(file.path) as NSString).deletingLastPathComponent
      if !parent.isEmpty && !FileManager.default.fileExists(atPath: parent) {
        if dryRun { return .createdFolder(path: parent, dryRun: true) }
        try createParent(of: file.path)
        note = .createdFolder(path: parent, dryRun: false)
      }
    }
    if writable { try file.checkWritable() }
    return note
  }

  /// Creates the drop-in's directory (0755) when it is missing, as a package would.
  public static func createParent(of path: String) throws {
    let parent = (path as NSString).deletingLastPathComponent
    guard !parent.isEmpty, !FileManager.default.fileExists(atPath: parent) else { return }
    do {
      try FileManager.default.createDirectory(
        atPath: parent, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
    } catch {
      throw ApplyError.notPermitted(path: path, detail: "cannot create \(parent)", isRoot: geteuid() == 0)
    }
  }
}

extension ManagedFile.Change {
  /// `+ line` and `- line` for every line of ours added or removed (removed first).
  public func diffText(skipping skip: (String) -> Bool = { _ in false }) -> String {
    var out = ""
    out.reserveCapacity((added.count + removed.count) * 24)
    for line in removed where !skip(line) { out += "- \(line)\n" }
    for line in added where !skip(line) { out += "+ \(line)\n" }
    return out
  }
}

extension ManagedFile.Drift {
  /// What the drift means, as a warning or note line.
  public func note(path: String) -> String {
    switch self {
    case .outsideSection(let since):
      "note: \(path) was changed by someone else since SaneHosts wrote it (\(since.formatted(.iso8601))); their lines outside the section are kept."
    case .insideSection(let since):
      "warning: the SaneHosts part of \(path) was edited by someone else since \(since.formatted(.iso8601)); those edits are replaced (a backup is kept)."
    }
  }
}

extension DataDirectory {
  /// Backups of the files SaneHosts changed.
  public var backups: URL { url.appendingPathComponent("backups", isDirectory: true) }
  /// The record of what SaneHosts last wrote to each file.
  public var ledger: URL { url.appendingPathComponent("applied.json") }
}
