import Apply
import BlockerTest
import Blocklists
import Catalog
import Foundation
import Mustache
import Testing
import Traffic

@testable import Dashboard
@testable import Store
@testable import UseCases

/// The templates of `Sources/Dashboard/Resources/Templates/`: all embedded, all parsed, and each page renders
/// on a first visit (empty data) and with hostile text (escaped, never markup).
@Suite("Templates")
struct TemplatesTests {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appending(path: "Sources/Dashboard/Resources/Templates")

  static let hostile = "<script>alert(1)</script>\"'&"

  @Test("Every file in Resources/Templates is embedded and registered under its name, byte for byte, and parses")
  func embedded() throws {
    let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter {
      $0.hasSuffix(".mustache")
    }
    #expect(Set(files.map { String($0.dropLast(".mustache".count)) }) == Set(Templates.files.map(\.name)))
    for file in Templates.files {
      let text = try String(contentsOf: Self.folder.appending(path: "\(file.name).mustache"), encoding: .utf8)
      #expect(file.text == text, "\(file.name)")
      #expect(throws: Never.self) { try MustacheTemplate(string: text) }
      #expect(Templates.library.getTemplate(named: file.name) != nil)
    }
  }

  @Test("No template writes a value unescaped ({{{ }}} or {{& }}), and none has an inline script or style")
  func escapedOnly() {
    for file in Templates.files {
      let text = file.text
      #expect(!text.contains("{{{") && !text.contains("{{&"), "\(file.name)")
      #expect(!text.contains("<script>") && !text.contains("style=") && !text.contains("<style"), "\(file.name)")
      #expect(text.range(of: #"\son[a-z]+="#, options: .regularExpression) == nil, "\(file.name): an event handler")
    }
  }

  /// Every page's model on a first visit: no source, no run, no report, nothing typed.
  static func firstVisit() async throws -> [(String, Any)] {
    let overlap = Overlap(try await Compiler().compile([]))
    let empty = TestReport(
      id: 1, startedAt: Date(), milliseconds: 0, probe: .system, target: "system resolver", timeoutMilliseconds: 1,
      controls: [], results: [])
    return [
      (
        "overview",
        OverviewPageController.Page(
          OverviewView(
            profile: "default", profiles: ["default"], names: nil, compiledAt: nil, sources: [], lastTest: nil,
            warnings: [], update: UpdateStatus(), test: TestStatus(), subscriptions: []))
      ),
      (
        "sources",
        SourcesPageController.Page(
          profile: "default", profiles: ["default"], sources: [], rules: [], update: UpdateStatus(), catalog: .builtIn)
      ),
      ("sources-update", SourcesPageController.UpdateCard(UpdateStatus())),
      ("source-diff", SourceDiffPageController.Page(key: "ads", held: false, difference: nil)),
      ("why", WhyPageController.Page(query: "", answer: nil, error: nil)),
      ("traffic", TrafficPageController.Page(report: nil, hasLogs: false, since: "24h", error: nil)),
      ("traffic", TrafficPageController.Page(report: nil, hasLogs: true, since: "24h", error: nil)),
      (
        "overlap",
        OverlapPageController.Page(
          Overlap.Report(profile: "default", total: 0, sources: [], pairs: [], missing: [], overlap: overlap))
      ),
      (
        "test",
        TestPageController.Page(status: TestStatus(), settings: Settings(), categories: [], latest: nil)
      ),
      ("test-status", TestPageController.Status(TestStatus())),
      ("history", HistoryPageController.Page([])),
      ("run-diff", RunDiffPageController.Page(RunDifference(from: empty, to: empty))),
      ("apply", ApplyPageController.Page(target: .hosts, path: "/etc/hosts", appliedNow: nil, backups: [])),
      ("login", LoginPageController.Page(failed: false)),
      ("error", ErrorPayload.ErrorPage(heading: "Not Found")),
      ("fleet", FleetPageController.Page(replicas: [], now: Date())),
    ]
  }

  @Test("Every page renders on a first visit, inside the layout, with nothing of Mustache left over")
  func firstVisitPages() async throws {
    let renderer = PageRenderer(csrf: "token")
    for (template, model) in try await Self.firstVisit() {
      let html = renderer.html(template, model: model)
      #expect(!html.isEmpty, "\(template)")
      #expect(!html.contains("{{") && !html.contains("}}"), "\(template)")
      let frame = PageRenderer.Frame(
        pageTitle: template, csrf: "token", nav: [], flash: nil, template: template, page: model)
      let page = renderer.library.render(frame, withTemplate: "layout") ?? ""
      #expect(page.hasPrefix("<!doctype html>") && page.hasSuffix("</html>\n"), "\(template)")
      #expect(page.contains(html), "\(template): the page holds the fragment as rendered alone")
    }
  }

  /// Every page's model with hostile text wherever a list, a URL, the network or the user can put text.
  static func hostileModels() async throws -> [(String, Any)] {
    let h = hostile
    var source = SourceSummary(ProfileSource(source: Source(id: 1, key: "evil", name: h, location: h), enabled: true))
    source.message = h
    var update = UpdateStatus(state: .running, profile: h)
    update.step = h
    update.message = h
    update.sources = [.init(key: h, phase: h, detail: h, fraction: 0.5)]
    let run = RunView(
      TestRunRecord(
        id: 1, startedAt: Date(), probe: h, target: h, milliseconds: 1, blocked: 1, reachable: 1, inconclusive: 0,
        report: Data()))
    let explanation = Explanation(
      query: h, name: h, unicode: h, invalidReason: nil, verdict: .blocked, summary: h,
      listings: [.init(source: h, sourceName: h, format: h, matched: h, exact: false, line: 1, text: h)],
      rules: [.init(rule: h, allows: true, origin: h, matched: h, decides: true)], publicSuffix: false,
      outputs: [.init(format: h, written: .leftOut, parent: h, reason: h)])
    var report = HitReport(profile: h, server: h, sources: [h])
    report.lists = [.init(list: h, size: 1, queries: 1, names: 1, onlyThis: 1, share: 1)]
    report.top = [.init(name: h, queries: 1, lists: [h])]
    let result = DomainResult(
      domain: TestDomain(hostname: h, category: h, provider: h), verdict: Verdict(.blocked, h), milliseconds: 1,
      listedBy: [h])
    let testReport = TestReport(
      id: 2, startedAt: Date(), milliseconds: 1, probe: .dns, target: h, timeoutMilliseconds: 1, controls: [],
      results: [result], warnings: [h])
    let difference = Store.CopyDifference(
      source: h, from: h, to: h, before: 1, after: 1, addedCount: 1, removedCount: 0, added: [h], removed: [],
      changedAt: nil)
    return [
      (
        "overview",
        OverviewPageController.Page(
          OverviewView(
            profile: h, profiles: [h], names: 1, compiledAt: Date(), sources: [source], lastTest: run, warnings: [h],
            update: update, test: TestStatus(), subscriptions: [h]))
      ),
      (
        "sources",
        SourcesPageController.Page(
          profile: h, profiles: [h, "other"], sources: [source],
          rules: [ProfileRule(id: 1, profileID: 1, action: .deny, kind: .regex, pattern: h)],
          update: update, catalog: .builtIn)
      ),
      ("source-diff", SourceDiffPageController.Page(key: h, held: true, difference: difference)),
      (
        "why",
        WhyPageController.Page(
          query: h,
          answer: Explainer.Answer(
            profile: h, sources: [h], missing: [], unreadable: [h], compiledCurrent: false, names: [explanation]),
          error: h)
      ),
      ("traffic", TrafficPageController.Page(report: report, hasLogs: true, since: h, error: h)),
      ("traffic-hit", TrafficPageController.NameRow(FeedItem(time: Date(), name: h, type: h, lists: [h]))),
      (
        "test",
        TestPageController.Page(
          status: TestStatus(state: .failed, message: h), settings: Settings(resolver: h), categories: [h],
          latest: testReport)
      ),
      ("history", HistoryPageController.Page([run])),
      ("run", HistoryPageController.Run(id: h, report: ReportView(testReport))),
      ("apply", ApplyPageController.Page(target: .hosts, path: h, appliedNow: h, backups: [])),
      ("flash", TrafficPageController.Flash(flash: h)),
      (
        "fleet",
        FleetPageController.Page(
          replicas: [Replica(id: 1, profileID: 1, name: h, feed: .pihole, pihole: h)], now: Date())
      ),
      (
        "fleet",
        FleetPageController.Page(checked: [
          ReplicaReport(name: h, feed: .transfer, address: h, verdict: .differs, serves: h, behind: h, detail: h)
        ])
      ),
    ]
  }

  @Test("Every template is rendered by these tests: by itself, or as a partial of one that is")
  func covered() async throws {
    let texts = Dictionary(uniqueKeysWithValues: Templates.files.map { ($0.name, $0.text) })
    var reached = Set(try await Self.firstVisit().map(\.0) + Self.hostileModels().map(\.0) + ["layout", "fragment"])
    var queue = Array(reached)
    while let name = queue.popLast() {
      let partials = (texts[name] ?? "").matches(of: /\{\{>([a-z0-9-]+)\}\}/).map { String($0.output.1) }
      for partial in partials where reached.insert(partial).inserted { queue.append(partial) }
    }
    #expect(reached == Set(texts.keys), "not rendered: \(Set(texts.keys).subtracting(reached).sorted())")
  }

  @Test("Hostile text from lists, URLs, logs and the user renders inert: escaped wherever it lands")
  func hostileText() async throws {
    let renderer = PageRenderer(csrf: "token")
    for (template, model) in try await Self.hostileModels() {
      let html = renderer.html(template, model: model)
      #expect(!html.contains("<script>"), "\(template)")
      #expect(!html.contains("\"'&"), "\(template)")
      #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&amp;"), "\(template)")
    }
  }
}
