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

    api.get("status") { _, _ in JSONResponse.make(try await overview()) }
    // The CSRF token for scripts on this machine (the same one every page carries; no CORS, so other
    // sites cannot read it).
    api.get("session") { _, _ in JSONResponse.make(["csrf": csrf]) }

    // Sources, catalog, profiles, rules.
    api.get("sources") { _, _ in JSONResponse.make(try store.sources().map { SourceSummary($0) }) }
    api.post("sources") { request, context in
      let body = try await request.decode(as: APIRequest.AddSource.self, context: context)
      let view = try addSource(body)
      return reply(request, view, status: .created, back: "/sources")
    }
    api.post("sources/:key/remove") { request, context in
      let key = try context.parameters.require("key")
      _ = try store.removeSource(key)
      return reply(request, ["removed": key], back: "/sources")
    }
    api.post("sources/:key/enabled") { request, context in
      let key = try context.parameters.require("key")
      let body = try await request.decode(as: APIRequest.Enabled.self, context: context)
      try store.setEnabled(body.enabled?.value ?? false, source: key)
      return reply(request, ["key": key, "enabled": "\(body.enabled?.value ?? false)"], back: "/sources")
    }
    api.post("sources/:key/accept") { request, context in
      let key = try context.parameters.require("key")
      let source = try await store.acceptHeldCopy(key)
      return reply(request, ["key": source.key, "names": "\(source.unique ?? 0)"], back: "/sources")
    }
    api.get("sources/:key/diff") { request, context in
      let key = try context.parameters.require("key")
      let query = request.uri.queryParameters
      let held = query["held"].map { $0 == "1" || $0 == "true" } ?? false
      let limit = query["limit"].flatMap { Int($0) }.map { min(max(0, $0), Self.diffLimit) } ?? Self.diffLimit
      guard let difference = try await store.difference(of: key, held: held, limit: limit) else {
        return JSONResponse.make([
          "source": key,
          "message": held ? "There is no copy held back." : "There is only one copy so far: nothing to compare yet.",
        ])
      }
      return JSONResponse.make(difference)
    }
    // Why a name is blocked. One name: debounced (the Why? box sends a request per keystroke; a burst
    // runs one explanation, of its newest text). Several names: answered at once.
    api.get("why") { request, _ in
      let names = request.uri.queryParameters[values: "name"].map(String.init).filter { !$0.isEmpty }
      guard !names.isEmpty else { throw DashboardError.badRequest("Give a name: /api/why?name=ads.example.com") }
      if names.count == 1 { return JSONResponse.make(try await why.answer(names[0])) }
      return JSONResponse.make(try await why.answerNow(names))
    }
    api.get("overlap") { _, _ in JSONResponse.make(try await Overlap.report(in: store)) }
    api.get("catalog") { _, _ in JSONResponse.make(Catalog.builtIn) }
    api.post("presets/:id") { request, context in
      let id = try context.parameters.require("id")
      guard let preset = Catalog.builtIn.preset(id: id) else {
        throw DashboardError.notFound(
          "No preset \"\(id)\": use one of \(Catalog.builtIn.presets.map(\.id).joined(separator: ", ")).")
      }
      var added: [String] = []
      for entry in Catalog.builtIn.entries(of: preset) {
        let result = try store.addSource(NewSource(entry))
        if result.isNew { added.append(result.source.key) }
      }
      return reply(request, ["added": added], status: .created, back: "/sources")
    }
    api.get("profiles") { _, _ in JSONResponse.make(try store.profiles()) }
    api.post("profiles") { request, context in
      let body = try await request.decode(as: APIRequest.Profile.self, context: context)
      let profile = try store.createProfile(body.name)
      return reply(request, profile, status: .created, back: "/sources")
    }
    api.post("profiles/:name/use") { request, context in
      let profile = try store.useProfile(try context.parameters.require("name"))
      return reply(request, profile, back: "/sources")
    }
    api.get("rules") { _, _ in JSONResponse.make(try store.rules()) }
    api.post("rules") { request, context in
      let body = try await request.decode(as: APIRequest.Rule.self, context: context)
      let rule = try store.addRule(body.pattern, action: try Self.action(body.kind))
      return reply(request, rule, status: .created, back: "/sources")
    }
    api.post("rules/remove") { request, context in
      let body = try await request.decode(as: APIRequest.Rule.self, context: context)
      try store.removeRule(body.pattern, action: try Self.action(body.kind))
      return reply(request, ["removed": body.pattern], back: "/sources")
    }

    // Update.
    api.get("update") { _, _ in JSONResponse.make(updates.relay.currentValue) }
    api.post("update") { request, context in
      let body = try await request.decode(as: APIRequest.Update.self, context: context)
      return reply(
        request, try await startUpdate(force: body.force?.value ?? false), status: .accepted, back: "/sources")
    }
    api.post("update/cancel") { request, _ in
      let cancelled = await updates.cancel()
      return reply(request, ["cancelled": cancelled], back: "/sources")
    }
    api.post("update/sources/:key/cancel") { request, context in
      let key = try context.parameters.require("key")
      let status = updates.relay.currentValue
      guard status.sources.contains(where: { $0.key == key }) else {
        throw DashboardError.notFound(
          "The update has no source “\(key)”: it is not in the active profile, or disabled.")
      }
      // False once the source (or the run) has ended.
      let cancelled = status.state == .running && updateSources.withLock { $0 }.cancel(key)
      return reply(request, ["cancelled": cancelled], back: "/sources")
    }
    api.get("update/events") { _, _ in events(updates.relay) }

    // Blocker test.
    api.get("test") { _, _ in JSONResponse.make(tests.relay.currentValue) }
    api.post("test") { request, context in
      let body = try await request.decode(as: TestRequest.self, context: context)
      return reply(request, try await startTest(body), status: .accepted, back: "/test")
    }
    api.post("test/cancel") { request, _ in
      let cancelled = await tests.cancel()
      return reply(request, ["cancelled": cancelled], back: "/test")
    }
    api.get("test/events") { _, _ in events(tests.relay) }
    api.get("test/result") { _, _ in
      guard let report = try History(store: store).latest() else {
        throw DashboardError.notFound("No blocker test has run yet: start one on the Test page or POST /api/test.")
      }
      return JSONResponse.make(report)
    }

    // History.
    api.get("history") { _, _ in JSONResponse.make(try store.testRuns().map(RunView.init)) }
    api.get("history/:id") { _, context in JSONResponse.make(try report(context.parameters.require("id"))) }
    api.get("history/:id/export") { request, context in
      let report = try report(context.parameters.require("id"))
      let format = request.uri.queryParameters["format"].map(String.init) ?? "json"
      return try export(report, format: format)
    }
    api.get("diff") { request, _ in
      let (old, new) = try diffPair(request)
      return JSONResponse.make(RunDifference(from: old, to: new))
    }

    // Apply.
    api.post("apply/preview") { request, context in
      let body = try await request.decode(as: APIRequest.Apply.self, context: context)
      return JSONResponse.make(try await apply(body, dryRun: true))
    }
    api.post("apply") { request, context in
      let body = try await request.decode(as: APIRequest.Apply.self, context: context)
      let view = try await apply(body, dryRun: false)
      // A plain form comes back to the page, which then says what happened.
      let outcome = view.result.wrote ? "wrote" : "unchanged"
      return reply(request, view, back: "/apply?target=\(view.result.target)&outcome=\(outcome)")
    }
    api.get("backups") { request, _ in
      let target = try Self.target(request.uri.queryParameters["target"].map(String.init))
      return JSONResponse.make(backups(of: target))
    }
    api.post("restore") { request, context in
      let body = try await request.decode(as: APIRequest.Restore.self, context: context)
      let file = managedFile(for: try Self.target(body.target))
      try file.checkWritable()
      let (_, outcome) = try file.restore(body.id)
      return reply(
        request, ["restored": body.id, "wrote": outcome.wrote ? "yes" : "no", "backup": outcome.backup?.id ?? ""],
        back: "/apply")
    }

    // Settings.
    api.get("settings") { _, _ in JSONResponse.make(Settings.load(from: configuration.data)) }
    api.post("settings") { request, context in
      let change = try await request.decode(as: Settings.Change.self, context: context)
      let settings = try Settings.load(from: configuration.data).applying(change).validated()
      try settings.save(to: configuration.data)
      return reply(request, settings, back: "/test")
    }
  }

  // MARK: Handlers

  /// The JSON answer, or for a plain HTML form a redirect back to its page.
  func reply(_ request: Request, _ value: some Encodable, status: HTTPResponse.Status = .ok, back: String)
    -> Response
  {
    if request.isForm { return Response(status: .seeOther, headers: [.location: back]) }
    return JSONResponse.make(value, status: status)
  }

  func overview() async throws -> OverviewView {
    let status = try ProfileStatus(in: store)
    let snapshot = status.snapshot
    let base = "/lists/\(snapshot.profile.name)"
    return OverviewView(
      profile: snapshot.profile.name, profiles: snapshot.profiles.map(\.name), names: snapshot.compiled?.names,
      compiledAt: snapshot.compiled?.compiledAt, sources: snapshot.sources.map { SourceSummary($0) },
      lastTest: snapshot.lastTest.map(RunView.init), warnings: status.warnings.map(WebAdvice.text),
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
        guard let listFormat = ListFormat(rawValue: format) else {
          throw DashboardError.badRequest(
            "Unknown format \"\(format)\": use one of \(ListFormat.allCases.map(\.rawValue).joined(separator: ", ")).")
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
      Applier.Options(server: server, dryRun: dryRun, force: body.force?.value ?? false, flush: flush))
    let lines = applied.change.diffText(skipping: server == nil ? { _ in false } : ServerTarget.isVolatile)
      .split(separator: "\n", omittingEmptySubsequences: true)
    let shown = lines.prefix(Self.diffLimit).joined(separator: "\n")
    var view = ApplyView(
      result: applied.result, warnings: applied.result.warnings.map(WebAdvice.text), diff: shown,
      diffOmitted: max(0, lines.count - Self.diffLimit))
    if !dryRun {
      (view.verification, view.verificationNote) = await verify(applied, server: server)
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
  func verify(_ applied: Applier.Applied, server: ServerTarget?) async -> (Verification?, String?) {
    let context = Verification.Context(
      reloaded: server == nil || applied.result.reloaded != nil, server: server != nil, path: applied.result.path)
    let names: [String]
    let removed: [String]
    do {
      let all = try await applied.verifiable(in: store)
      names = Verification.sample(all, added: applied.addedNames, count: 50, seed: 1)
      removed = Verification.sample(applied.removedNames(applied: all), count: 50, seed: 1)
    } catch {
      return (nil, "Not verified: the names applied could not be read back: \(error.localizedDescription)")
    }
    guard server != nil else {
      guard Ledger.key(applied.result.path) == "/etc/hosts" else {
        return (nil, "Not verified: the system resolver reads /etc/hosts, not \(applied.result.path).")
      }
      return (
        await Verification.verify(
          names, allowed: applied.allowedNames, removed: removed, through: nil, context: context), nil
      )
    }
    let settings = Settings.load(from: configuration.data)
    let resolver = settings.resolver
    guard !resolver.isEmpty, let address = try? ServerAddress(parsing: resolver) else {
      return (
        nil, "Not verified: set the DNS server that loads the drop-in on the Test page (DNS server), then apply again."
      )
    }
    let timeout = Duration.milliseconds(Int(settings.timeout * 1000))
    return (
      await Verification.verify(
        names, allowed: applied.allowedNames, removed: removed, through: address, context: context,
        timeout: timeout, settle: applied.result.reloaded != nil ? server?.settleAfterReload ?? .zero : .zero), nil
    )
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
    let (body, type, suffix): (String, String, String)
    switch format {
    case "json":
      let encoder = JSONEncoder()
      encoder.dateEncodingStrategy = .iso8601
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
      body = String(decoding: try encoder.encode(report), as: UTF8.self) + "\n"
      (type, suffix) = ("application/json", "json")
    case "text": (body, type, suffix) = (report.text(), "text/plain", "txt")
    case "junit": (body, type, suffix) = (report.junit(), "application/xml", "xml")
    default: throw DashboardError.badRequest("Unknown export format \"\(format)\": use text, json or junit.")
    }
    return Response(
      status: .ok,
      headers: [
        .contentType: "\(type); charset=utf-8",
        .contentDisposition: "attachment; filename=\"sanehosts-test-\(report.id ?? 0).\(suffix)\"",
      ],
      body: .init(byteBuffer: ByteBuffer(string: body)))
  }
}
