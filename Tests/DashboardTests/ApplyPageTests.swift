import Apply
import Foundation
import Testing

@testable import Dashboard

@Suite("Apply page")
struct ApplyPageTests {
  @Test("Targets, the file, the diff, first-write instructions and restore buttons")
  func render() {
    let result = Applier.Result(
      target: "unbound", path: "/d/sanehosts-unbound.conf", profile: "p", names: 2, added: 2, removed: 0, wrote: true,
      dryRun: false, backup: nil, inPlace: false, check: "unbound-checkconf: no errors", reloaded: nil, flushed: nil,
      flushSummary: nil, lookupMicroseconds: nil, warnings: [.notDownloaded(source: "<w>")], firstWrite: true,
      instructions: "include: \"/d/sanehosts-unbound.conf\"")
    let model = ApplyPage.Model(
      target: .server(.unbound), path: result.path,
      preview: ApplyView(
        result: result, warnings: result.warnings.map(WebAdvice.text), diff: "+ a\n+ b", diffOmitted: 3),
      previewError: nil, backups: [BackupView(id: "20261122-1", date: Date(), bytes: 1234)])
    let html = ApplyPage.render(model, csrf: "c").output
    #expect(html.contains("<option value=\"unbound\" selected>unbound</option>"))
    #expect(html.contains("Applied profile p to /d/sanehosts-unbound.conf: 2 names; entries +2 −0."))
    #expect(html.contains("&lt;w&gt; has no saved copy yet and is left out: press Update now on the Sources page."))
    #expect(!html.contains("sanehosts update"))
    #expect(html.contains("include: &quot;/d/sanehosts-unbound.conf&quot;"))
    #expect(html.contains("+ a\n+ b\n… 3 more lines"))
    #expect(html.contains("data-backup=\"20261122-1\""))
    #expect(LoginPage.render(failed: true).output.contains("That token is not right."))
  }
}
