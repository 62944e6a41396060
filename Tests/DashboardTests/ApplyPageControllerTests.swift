import Apply
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Store
import Testing

@testable import Dashboard

@Suite("Apply page")
struct ApplyPageControllerTests {
  @Test("Targets, the file, the diff, first-write instructions and restore buttons")
  func render() {
    let result = Applier.Result(
      target: "unbound", path: "/d/sanehosts-unbound.conf", profile: "p", names: 2, added: 2, removed: 0, wrote: true,
      dryRun: false, backup: nil, inPlace: false, check: "unbound-checkconf: no errors", reloaded: nil, flushed: nil,
      flushSummary: nil, lookupMicroseconds: nil, warnings: [.notDownloaded(source: "<w>")], firstWrite: true,
      instructions: "include: \"/d/sanehosts-unbound.conf\"")
    var page = ApplyPageController.Page(
      target: .server(.unbound), path: result.path, appliedNow: nil,
      backups: [BackupView(id: "20261122-1", date: Date(), bytes: 1234)])
    page.show(
      ApplyView(result: result, warnings: result.warnings.map(WebAdvice.text), diff: "+ a\n+ b", diffOmitted: 3))
    let html = PageRenderer(csrf: "c").html("apply", model: page)
    #expect(html.contains("<option value=\"unbound\" selected>unbound</option>"))
    #expect(html.contains("Applied profile p to /d/sanehosts-unbound.conf: 2 names; entries +2 −0."))
    #expect(html.contains("&lt;w&gt; has no saved copy yet and is left out: press Update now on the Sources page."))
    #expect(!html.contains("sanehosts update"))
    #expect(html.contains("include: &quot;/d/sanehosts-unbound.conf&quot;"))
    #expect(html.contains("+ a\n+ b\n… 3 more lines"))
    #expect(html.contains("data-backup=\"20261122-1\""))
  }

  @Test("Before any preview the result and the diff are empty elements (no empty box shows)")
  func empty() {
    let page = ApplyPageController.Page(target: .hosts, path: "/etc/hosts", appliedNow: nil, backups: [])
    let html = PageRenderer(csrf: "c").html("apply", model: page)
    #expect(html.contains("<div id=\"apply-result\" aria-live=\"polite\"></div>"))
    #expect(html.contains("aria-label=\"Changes\"></pre>"))
    #expect(html.contains("No backups yet"))
  }

  @Test(
    "The script's preview and apply get the outcome rendered: the result, the diff and (after an apply) the backups")
  func fragments() async throws {
    try await DashboardHarness.with { harness in
      _ = try harness.dashboardStore().addRule("ads.website", action: .deny)
      let csrf = harness.dashboard.csrfToken
      try await harness.routes { client async throws in
        let preview = try await client.get("/apply?fragment=apply-outcome&target=hosts&preview=1").text
        #expect(preview.hasPrefix("<div id=\"apply-result\""), "\(preview)")
        #expect(preview.contains("+ 0.0.0.0 ads.website") && !preview.contains("<html"))
        let applied = try await client.execute(
          uri: "/apply?fragment=apply-outcome", method: .post,
          headers: [.contentType: "application/x-www-form-urlencoded", .init("X-CSRF-Token")!: csrf],
          body: .init(string: "target=hosts&preview=1"))
        #expect(applied.status == .ok, "\(applied.text)")
        #expect(applied.text.contains("Applied profile default to \(harness.hostsFile.path)"))
        #expect(applied.text.contains("<table id=\"backups\"") && applied.text.contains("data-backup="))
      }
    }
  }
}
