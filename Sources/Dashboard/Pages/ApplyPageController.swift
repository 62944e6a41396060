import Apply
import BlockerTest
import Blocklists
import Foundation
import Hummingbird
import UseCases

/// The Apply page (`/apply`, `apply.mustache`): the target, a diff preview (a GET: it writes nothing), Apply,
/// and the backups with Restore. The script previews with `?fragment=apply-outcome` and applies with
/// `POST /apply?fragment=apply-outcome`, which answers the outcome and the backups, rendered.
struct ApplyPageController: Sendable {
  /// Applying, the targets' files and backups.
  let applier: ApplyService
  /// The templates.
  let renderer: PageRenderer

  /// `GET /?target=T[&preview=1][&outcome=wrote|unchanged]`, `POST /?fragment=apply-outcome`.
  var routes: RouteCollection<DashboardContext> {
    let routes = RouteCollection(context: DashboardContext.self)
    routes.get { request, _ in
      let query = request.uri.queryParameters
      let target = try ApplyService.target(
        query["target"].map(String.init) ?? Settings.load(from: applier.configuration.data).target)
      var page = page(for: target)
      page.outcome(query["outcome"].map(String.init))
      if query["preview"] != nil {
        do {
          page.show(try await applier.apply(APIRequest.Apply(target: target.name, force: nil), dryRun: true))
        } catch {
          let payload = ErrorPayload.from(error).0
          page.previewError = [payload.error, payload.suggestion].compactMap { $0 }.joined(separator: " ")
        }
      }
      if request.fragment == "apply-outcome" { return renderer.fragment("apply-outcome", model: page) }
      return renderer.page("apply", title: "Apply", section: "/apply", model: page)
    }
    // The script's Apply: the outcome and the backups (one more now), rendered; an error is the flash.
    routes.post { request, context in
      let body = try await request.decode(as: APIRequest.Apply.self, context: context)
      let view = try await applier.apply(body, dryRun: false)
      var page = page(for: try ApplyService.target(body.target))
      page.show(view)
      return PageRenderer.response(
        renderer.html("apply-outcome", model: page) + renderer.html("apply-backups", model: page))
    }
    return routes
  }

  /// The page for a target, before any preview.
  private func page(for target: Target) -> Page {
    let file = applier.managedFile(for: target)
    return Page(
      target: target, path: file.path, appliedNow: Self.appliedNow(file), backups: applier.backups(of: target))
  }

  /// What SaneHosts last wrote to the file and whether it still holds it, in a sentence.
  static func appliedNow(_ file: ManagedFile) -> String? {
    guard let applied = AppliedFile(file) else { return nil }
    guard let profile = applied.profile, applied.holds(profile) else {
      return "Nothing of SaneHosts' is applied there now."
    }
    return
      "Applied now: profile \(profile), \(applied.names.counted("name")), since \(applied.date.formatted(date: .abbreviated, time: .shortened))"
      + (applied.unchanged == true ? "." : " (changed since by someone else).")
  }

  /// What `apply.mustache` shows.
  struct Page {
    struct Option {
      var value: String
      var label: String
      var selected: Bool
    }
    struct Backup {
      var id: String
      var date: String
      var bytes: String
    }
    /// A sampled verification after an apply.
    struct Verification {
      var verificationClass: String
      var summary: String
      var misses: [String]
    }
    /// An apply's or preview's outcome.
    struct Result {
      var line: String
      var check: String?
      var resultWarnings: [String]
      var instructions: String?
      var verification: Verification?
      var verificationNote: String?
    }

    var targets: [Option]
    var targetName: String
    var path: String
    var appliedNow: String?
    var outcomeLine: String?
    var result: Result?
    var previewError: String?
    var diff: String = ""
    var backups: [Backup]

    /// The page for a target's file, with what it holds now and its backups.
    init(target: Target, path: String, appliedNow: String?, backups: [BackupView]) {
      targets = Target.all.map { Option(value: $0.name, label: $0.label, selected: $0 == target) }
      targetName = target.name
      self.path = path
      self.appliedNow = appliedNow
      self.backups = backups.map { Backup(id: $0.id, date: Format.date($0.date), bytes: $0.bytes.grouped) }
    }

    /// Says what a plain form's apply did (`wrote` or `unchanged`).
    mutating func outcome(_ outcome: String?) {
      switch outcome {
      case "wrote":
        outcomeLine = "Applied to \(path).\(backups.first.map { " The previous file is backup \($0.id)." } ?? "")"
      case "unchanged":
        outcomeLine = "\(path) already held the profile: nothing to write."
      default:
        break
      }
    }

    /// Shows an apply's or preview's result and the lines that change.
    mutating func show(_ view: ApplyView) {
      let result = view.result
      // Names blocked, and the file's entries added and removed (an RPZ name is two entries, a dnsmasq
      // line may hold several names): two counts, never mixed in one.
      let counts = "\(result.names.counted("name")); entries +\(result.added.grouped) −\(result.removed.grouped)"
      let line =
        result.dryRun
        ? "Would apply profile \(result.profile) to \(result.path): \(counts)."
        : result.wrote
          ? "Applied profile \(result.profile) to \(result.path): \(counts).\(result.backup.map { " Backup: \($0)." } ?? "")"
          : "\(result.path) already holds profile \(result.profile) (\(result.names.counted("name"))): nothing to write."
      self.result = Result(
        line: line, check: result.check, resultWarnings: view.warnings,
        instructions: result.firstWrite ? result.instructions : nil,
        verification: view.verification.map { verification in
          Verification(
            verificationClass: verification.passed ? "passed" : "warning",
            summary: "\(verification.summary) (through \(verification.target))",
            misses: verification.notBlocked.map {
              "not blocked: \($0.name) (\($0.outcome.rawValue): \($0.reason)): \($0.cause)"
            })
        }, verificationNote: view.verificationNote)
      diff =
        (view.diff.isEmpty ? "(no change)" : view.diff)
        + (view.diffOmitted > 0 ? "\n… \(view.diffOmitted.grouped) more lines" : "")
    }
  }
}
