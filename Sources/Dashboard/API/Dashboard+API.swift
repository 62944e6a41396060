import Apply
import BlockerTest
import Blocklists
import Catalog
import DNS
import Downloads
import Foundation
import HTTPTypes
import Hummingbird
import Loading
import Locking
import Store
import Updates
import UseCases

/// Request bodies of the API (JSON, or the same fields from an HTML form).
enum APIRequest {
  struct AddSource: Codable, Sendable {
    var url: String?
    var key: String?
    var format: String?
    var catalog: String?
  }
  struct Enabled: Codable, Sendable { var enabled: Flag? }
  struct Rule: Codable, Sendable {
    var kind: String
    var pattern: String
    /// The page a plain form goes back to (a path of this dashboard), else the Sources page.
    var back: String?
  }
  struct Profile: Codable, Sendable { var name: String }
  struct Update: Codable, Sendable { var force: Flag? }
  struct Apply: Codable, Sendable {
    var target: String?
    var force: Flag?
  }
  struct Restore: Codable, Sendable {
    var target: String?
    var id: String
  }
}

extension Dashboard {
  /// The longest diff the API returns (the rest is counted).
  static var diffLimit: Int { 2000 }

  func addAPIRoutes(to router: Router<DashboardContext>) {
    let api = router.group("api")
    StatusController(dashboard: self).addRoutes(to: api)
    SourcesController(dashboard: self).addRoutes(to: api)
    ExplainController(dashboard: self).addRoutes(to: api)
    ProfilesController(dashboard: self).addRoutes(to: api)
    RulesController(dashboard: self).addRoutes(to: api)
    UpdateController(dashboard: self).addRoutes(to: api)
    TestController(dashboard: self).addRoutes(to: api)
    HistoryController(dashboard: self).addRoutes(to: api)
    ApplyController(dashboard: self).addRoutes(to: api)
    SettingsController(dashboard: self).addRoutes(to: api)
    TrafficController(dashboard: self).addRoutes(to: api)
  }

  // MARK: Handlers

  /// A page of this dashboard a form names to go back to (`/traffic`): a path, never another site.
  static func localPage(_ back: String?) -> String? {
    guard let back, back.hasPrefix("/"), !back.hasPrefix("//"), !back.contains("\\") else { return nil }
    return back
  }

  /// The JSON answer, or for a plain HTML form a redirect back to its page.
  func reply(_ request: Request, _ value: some Encodable, status: HTTPResponse.Status = .ok, back: String)
    -> Response
  {
    if request.isForm { return Response(status: .seeOther, headers: [.location: back]) }
    return JSONResponse.make(value, status: status)
  }

  func overview() async throws -> OverviewView {
    let state = try storeView.current()
    let snapshot = state.snapshot
    let status = ProfileStatus(snapshot)
    let base = "/lists/\(snapshot.profile.name)"
    return OverviewView(
      profile: snapshot.profile.name, profiles: snapshot.profiles.map(\.name), names: snapshot.compiled?.names,
      compiledAt: snapshot.compiled?.compiledAt, sources: snapshot.sources.map { SourceSummary($0) },
      lastTest: state.lastRun, warnings: status.warnings.map(WebAdvice.text),
      update: updates.relay.currentValue, test: tests.relay.currentValue,
      subscriptions: ListCache.Format.allCases.map { "\(base).\($0.fileExtension)" })
  }

  func addSource(_ body: APIRequest.AddSource) throws -> SourceSummary {
    let new: NewSource
    if let id = body.catalog, !id.isEmpty {
      guard let entry = Catalog.builtIn.entry(id: id) else {
        throw DashboardError.notFound("No catalog list \"\(id)\": see GET /api/catalog for the ids.")
      }
      new = NewSource(entry)
    } else {
      let text = (body.url ?? "").trimmingCharacters(in: .whitespaces)
      guard !text.isEmpty else { throw DashboardError.badRequest("Give the list's URL (https://…) or a catalog id.") }
      let lowered = text.lowercased()
      guard lowered.hasPrefix("https://") || lowered.hasPrefix("http://") else {
        throw DashboardError.badRequest(
          "\"\(text)\" is not an http(s) URL. The dashboard adds lists by URL or catalog id; add a local file with `sanehosts sources add PATH`."
        )
      }
      var parsed = try NewSource.parse(text)
      if let key = body.key, !key.isEmpty { parsed.key = key }
      if let format = body.format, !format.isEmpty {
        guard let listFormat = InputFormat(rawValue: format) else {
          throw DashboardError.badRequest(
            "Unknown format \"\(format)\": use one of \(InputFormat.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        parsed.format = listFormat
      }
      new = parsed
    }
    do {
      _ = try URLPolicy.check(new.location)
    } catch {
      throw DashboardError.badRequest(
        [error.errorDescription, error.recoverySuggestion].compactMap { $0 }.joined(separator: " "))
    }
    let (source, _) = try store.addSource(new)
    let member = try store.sources().first { $0.source.key == source.key }
    return SourceSummary(member ?? ProfileSource(source: source, enabled: true))
  }

  static func action(_ kind: String) throws(DashboardError) -> ProfileRule.Action {
    guard let action = ProfileRule.Action(rawValue: kind.lowercased()) else {
      throw .badRequest("Unknown rule kind \"\(kind)\": use allow or deny.")
    }
    return action
  }

  static func target(_ text: String?) throws(DashboardError) -> Target {
    guard let text, !text.isEmpty else { return .hosts }
    guard let target = Target(name: text) else {
      throw .badRequest("Unknown target \"\(text)\": use \(Target.names).")
    }
    return target
  }

  /// The file a target writes: the configured hosts file, or the server's drop-in.
  func managedFile(for target: Target) -> ManagedFile {
    ApplyDestination.file(
      for: target, hostsFile: configuration.hostsFile,
      dropInDirectory: configuration.dropInDirectory, keepBackups: configuration.keepBackups,
      data: configuration.data)
  }

  func apply(_ body: APIRequest.Apply, dryRun: Bool) async throws -> ApplyView {
    let target = try Self.target(body.target)
    let server = target.server
    let file = managedFile(for: target)
    // The system resolver's caches are flushed after writing /etc/hosts, as `apply --flush` does.
    let flush = server == nil && Ledger.key(file.path) == "/etc/hosts"
    let applied = try await Applier(store: store, file: file).apply(
      Applier.Options(
        server: server, dryRun: dryRun, force: body.force?.value ?? false, flush: flush, verify: server != nil))
    let lines = applied.change.diffText(skipping: server == nil ? { _ in false } : ServerTarget.isVolatile)
      .split(separator: "\n", omittingEmptySubsequences: true)
    let shown = lines.prefix(Self.diffLimit).joined(separator: "\n")
    var view = ApplyView(
      result: applied.result, warnings: applied.result.warnings.map(WebAdvice.text), diff: shown,
      diffOmitted: max(0, lines.count - Self.diffLimit))
    if !dryRun {
      (view.verification, view.verificationNote) = await verify(applied, target: target)
      // A drop-in its server has not confirmed loading: what fails is the reload, which the dashboard
      // does not do.
      if view.verification?.passed == false, let server = target.server,
        let line = ApplyVerification.notLoadedLine(applied, server: server.server)
      {
        view.verificationNote = line + ": reload the server (as the Apply page's instructions say), then apply again."
      }
      if let verification = view.verification {
        view.verification?.notBlocked = verification.notBlocked.map { miss in
          var miss = miss
          miss.cause = WebAdvice.cause(miss)
          return miss
        }
      }
    }
    return view
  }

  /// Probes a sample of the names just applied through the target, as `sanehosts apply --verify` does: the
  /// system resolver for the hosts file, the Test page's DNS server for a drop-in.
  func verify(_ applied: Applier.Applied, target: Target) async -> (Verification?, String?) {
    let settings = Settings.load(from: configuration.data)
    let server = target == .hosts ? nil : try? ServerAddress(parsing: settings.resolver)
    if let obstacle = ApplyVerification.obstacle(target: target, path: applied.result.path, server: server) {
      return (
        nil,
        target == .hosts
          ? "Not verified: \(obstacle)."
          : "Not verified: set the DNS server that loads the drop-in on the Test page (DNS server), then apply again."
      )
    }
    do {
      return (
        try await ApplyVerification.verify(
          applied, target: target, through: server, in: store, timeout: .milliseconds(Int(settings.timeout * 1000))),
        nil
      )
    } catch {
      return (nil, "Not verified: the names applied could not be read back: \(error.localizedDescription)")
    }
  }

  func backups(of target: Target) -> [BackupView] {
    managedFile(for: target).backups.list().map { backup in
      BackupView(
        id: backup.id, date: backup.date,
        bytes: (try? FileManager.default.attributesOfItem(atPath: backup.url.path)[.size] as? Int) ?? 0)
    }
  }

  func report(_ idText: String) throws -> TestReport {
    guard let id = Int64(idText) else { throw DashboardError.badRequest("\"\(idText)\" is not a run id (a number).") }
    return try History(store: store).load(id)
  }

  func diffPair(_ request: Request) throws -> (TestReport, TestReport) {
    let query = request.uri.queryParameters
    guard let from = query["from"].map(String.init), let to = query["to"].map(String.init) else {
      throw DashboardError.badRequest("Give two runs to compare: ?from=ID&to=ID.")
    }
    return (try report(from), try report(to))
  }

  func export(_ report: TestReport, format: String) throws -> Response {
    guard let format = TestReport.ExportFormat(rawValue: format) else {
      throw DashboardError.badRequest(
        "Unknown export format \"\(format)\": use \(TestReport.ExportFormat.names).")
    }
    return Response(
      status: .ok,
      headers: [
        .contentType: "\(format.contentType); charset=utf-8",
        .contentDisposition: "attachment; filename=\"sanehosts-test-\(report.id ?? 0).\(format.fileExtension)\"",
      ],
      body: .init(byteBuffer: ByteBuffer(string: report.exported(as: format))))
  }
}
