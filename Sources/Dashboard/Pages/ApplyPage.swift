import Apply
import BlockerTest
import Blocklists
import Foundation
import UseCases

/// The Apply page: the target, a diff preview, apply, and the backups with restore.
enum ApplyPage {
  struct Model {
    var target: Target
    var path: String
    var preview: ApplyView?
    var previewError: String?
    var backups: [BackupView]
    /// After a plain form's apply: `wrote` or `unchanged`.
    var outcome: String? = nil
    /// What the file holds now, as `status` says it (from the ledger), or nil when SaneHosts never wrote it.
    var appliedNow: String? = nil
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

  static func render(_ model: Model, csrf: String) -> HTML {
    let html = HTML()
    let csrfField = Layout.csrfField(csrf)
    html.raw("<h1>Apply</h1><section class=\"card\" aria-labelledby=\"apply-title\"><h2 id=\"apply-title\">Where</h2>")
    html.raw("<form id=\"apply-form\" method=\"get\" action=\"/apply\" class=\"stack\"><div class=\"row wrap\"><div>")
    html.raw("<label for=\"apply-target\">Target</label><select id=\"apply-target\" name=\"target\">")
    for target in Target.all {
      html.raw(
        "<option value=\"\(target.name)\"\(target == model.target ? " selected" : "")>\(target.label)</option>")
    }
    html.raw("</select></div><p>File: <code id=\"apply-path\">").text(model.path).raw("</code></p></div>")
    if let now = model.appliedNow { html.element("p", [("id", "applied-now"), ("class", "muted")], text: now) }
    html.raw("<input type=\"hidden\" name=\"preview\" value=\"1\">")
    html.raw(
      "<div class=\"row\"><button id=\"apply-preview\" type=\"submit\" class=\"secondary\">Preview changes</button>")
    html.raw(
      "<button id=\"apply-run\" type=\"submit\" formmethod=\"post\" formaction=\"/api/apply\" data-apply>Apply</button>"
    )
    html.raw(
      "<label class=\"check\"><input type=\"checkbox\" name=\"force\" id=\"apply-force\"> Replace edits made by others</label></div>"
    )
    html.raw(csrfField).raw("</form>")
    html.raw("<div id=\"apply-result\" aria-live=\"polite\">")
    switch model.outcome {
    case "wrote":
      let backup = model.backups.first.map { " The previous file is backup \($0.id)." } ?? ""
      html.element("p", [("class", "result")], text: "Applied to \(model.path).\(backup)")
    case "unchanged":
      html.element("p", [("class", "result")], text: "\(model.path) already held the profile: nothing to write.")
    default:
      break
    }
    if let preview = model.preview { html.append(result(preview)) }
    if let error = model.previewError { html.element("p", [("class", "error")], text: error) }
    html.raw("</div><pre id=\"apply-diff\" class=\"diff\" tabindex=\"0\" aria-label=\"Changes\">")
    if let preview = model.preview {
      html.text(preview.diff.isEmpty ? "(no change)" : preview.diff)
      if preview.diffOmitted > 0 { html.text("\n… \(preview.diffOmitted.grouped) more lines") }
    }
    html.raw("</pre></section>")

    html.raw("<section aria-labelledby=\"backups-title\"><h2 id=\"backups-title\">Backups</h2>")
    html.raw(
      "<div class=\"scroll\"><table id=\"backups\" class=\"stack\"><thead><tr><th scope=\"col\">Backup</th><th scope=\"col\">Taken</th>"
    )
    html.raw(
      "<th scope=\"col\" class=\"num\">Bytes</th><th scope=\"col\"><span class=\"visually-hidden\">Restore</span></th></tr></thead><tbody>"
    )
    for backup in model.backups {
      html.raw("<tr><td><code>").text(backup.id).raw("</code></td><td>").text(Layout.date(backup.date))
      html.raw(
        "</td><td class=\"num\">\(backup.bytes.grouped)</td><td><form method=\"post\" action=\"/api/restore\" data-api data-confirm=\"Restore this backup?\">\(csrfField)"
      )
      html.raw(
        "<input type=\"hidden\" name=\"target\" value=\"\(model.target.name)\"><input type=\"hidden\" name=\"id\" value=\"\(HTML.escape(backup.id))\">"
      )
      html.raw(
        "<button type=\"submit\" class=\"restore small secondary\" data-backup=\"\(HTML.escape(backup.id))\">Restore</button></form></td></tr>"
      )
    }
    if model.backups.isEmpty {
      html.raw("<tr><td colspan=\"4\">No backups yet: one is taken before every change.</td></tr>")
    }
    html.raw("</tbody></table></div></section>")
    return html
  }

  /// The summary of an apply or preview.
  static func result(_ view: ApplyView) -> HTML {
    let html = HTML()
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
    html.element("p", [("class", "result")], text: line)
    if let check = result.check { html.element("p", text: "Check: \(check)") }
    for warning in view.warnings { html.element("p", [("class", "warning")], text: warning) }
    if result.firstWrite, let instructions = result.instructions {
      html.element("p", text: "To load it, add to the server's configuration (once):")
      html.element("pre", text: instructions)
    }
    if let verification = view.verification {
      html.element(
        "p", [("id", "verification"), ("class", verification.passed ? "verification passed" : "verification warning")],
        text: "\(verification.summary) (through \(verification.target))")
      for miss in verification.notBlocked {
        html.element(
          "p", [("class", "small")],
          text: "not blocked: \(miss.name) (\(miss.outcome.rawValue): \(miss.reason)): \(miss.cause)")
      }
    }
    if let note = view.verificationNote {
      html.element("p", [("class", "muted"), ("id", "verification-note")], text: note)
    }
    return html
  }
}

/// Sign-in with the access token, for a dashboard reached from another machine.
enum LoginPage {
  static func render(failed: Bool) -> HTML {
    let html = HTML()
    html.raw("<h1>Sign in</h1><p>This dashboard listens beyond this machine, so it needs its access token ")
    html.raw(
      "(printed by <code>sanehosts serve</code> and kept in the data directory's <code>dashboard.token</code>).</p>")
    if failed { html.raw("<p class=\"error\" role=\"alert\">That token is not right.</p>") }
    html.raw("<form method=\"post\" action=\"/login\" class=\"stack\"><label for=\"token\">Access token</label>")
    html.raw("<input id=\"token\" name=\"token\" type=\"password\" autocomplete=\"current-password\" required>")
    html.raw("<button type=\"submit\">Sign in</button></form>")
    return html
  }
}
