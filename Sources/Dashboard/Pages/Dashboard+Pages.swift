import Apply
import BlockerTest
import Blocklists
import Catalog
import Foundation
import Hummingbird
import Loading
import Store
import Traffic
import UseCases

extension Dashboard {
  /// The pages, each group in its own function.
  func addPageRoutes(to router: Router<DashboardContext>) {
    addListPages(to: router)
    addTestPages(to: router)
    addApplyPage(to: router)
    addSessionRoutes(to: router)
  }

  /// The overview, sources, a copy's changes, Why? and Overlap.
  private func addListPages(to router: Router<DashboardContext>) {
    router.get("/") { _, _ in
      Layout.page(title: "Overview", path: "/", csrf: csrf, body: OverviewPage.render(try await overview(), csrf: csrf))
    }
    router.get("sources") { _, _ in
      let profile = try store.activeProfile()
      let model = SourcesPage.Model(
        profile: profile.name, profiles: try store.profiles().map(\.name),
        sources: try store.sources(in: profile.name).map { SourceSummary($0) },
        rules: try store.rules(in: profile.name),
        update: updates.relay.currentValue, catalog: Catalog.builtIn)
      return Layout.page(title: "Sources", path: "/sources", csrf: csrf, body: SourcesPage.render(model, csrf: csrf))
    }
    router.get("why") { request, _ in
      let query = request.uri.queryParameters["name"].map(String.init)?.trimmingCharacters(in: .whitespaces) ?? ""
      var answer: Explainer.Answer?
      var message: String?
      if !query.isEmpty {
        do {
          answer = try await why.answerNow([query])
        } catch {
          let payload = ErrorPayload.from(error).0
          message = [payload.error, payload.suggestion].compactMap { $0 }.joined(separator: " ")
        }
      }
      return Layout.page(
        title: "Why?", path: "/why", csrf: csrf, body: WhyPage.render(query: query, answer: answer, error: message))
    }
    router.get("traffic") { request, _ in
      let since = request.uri.queryParameters["since"].map(String.init) ?? "24h"
      var report: HitReport?
      var message: String?
      if !configuration.queryLogs.isEmpty {
        do {
          report = try await traffic(since: since)
        } catch {
          let payload = ErrorPayload.from(error).0
          message = [payload.error, payload.suggestion].compactMap { $0 }.joined(separator: " ")
        }
      }
      return Layout.page(
        title: "Traffic", path: "/traffic", csrf: csrf,
        body: TrafficPage.render(
          report: report, logs: configuration.queryLogs, since: since, error: message, csrf: csrf))
    }
    router.get("overlap") { _, _ in
      Layout.page(
        title: "Overlap", path: "/overlap", csrf: csrf, body: OverlapPage.render(try await Overlap.report(in: store)))
    }
    router.get("sources/:key/diff") { request, context in
      let key = try context.parameters.require("key")
      let held = request.uri.queryParameters["held"].map { $0 == "1" || $0 == "true" } ?? false
      let difference = try await store.difference(of: key, held: held, limit: 500)
      return Layout.page(
        title: "\(key): changes", path: "/sources", csrf: csrf,
        body: CopyDiffPage.render(key: key, held: held, difference: difference, csrf: csrf))
    }
  }

  /// The Test page, the history, a run and the comparison of two.
  private func addTestPages(to router: Router<DashboardContext>) {
    router.get("test") { _, _ in
      let model = TestPage.Model(
        status: tests.relay.currentValue, settings: Settings.load(from: configuration.data),
        categories: try Registry.builtIn(with: store).categories, latest: try History(store: store).latest())
      return Layout.page(title: "Test", path: "/test", csrf: csrf, body: TestPage.render(model, csrf: csrf))
    }
    router.get("history") { _, _ in
      let runs = try store.testRuns(limit: 100).map(RunView.init)
      return Layout.page(title: "History", path: "/history", csrf: csrf, body: HistoryPage.render(runs))
    }
    router.get("history/:id") { _, context in
      let report = try report(context.parameters.require("id"))
      let html = HTML()
      html.raw("<h1>")
      html.text("Run \(report.id.map(String.init) ?? "")")
      html.raw("</h1>")
      html.append(ReportView.render(report))
      return Layout.page(title: "Run \(report.id.map(String.init) ?? "")", path: "/history", csrf: csrf, body: html)
    }
    router.get("diff") { request, _ in
      let (old, new) = try diffPair(request)
      return Layout.page(
        title: "Compare runs", path: "/history", csrf: csrf,
        body: HistoryPage.difference(RunDifference(from: old, to: new)))
    }
  }

  /// The Apply page, with its preview.
  private func addApplyPage(to router: Router<DashboardContext>) {
    router.get("apply") { request, _ in
      let query = request.uri.queryParameters
      let target = try Self.target(query["target"].map(String.init) ?? Settings.load(from: configuration.data).target)
      let file = managedFile(for: target)
      var model = ApplyPage.Model(
        target: target, path: file.path, preview: nil, previewError: nil,
        backups: backups(of: target), outcome: query["outcome"].map(String.init))
      model.appliedNow = ApplyPage.appliedNow(file)
      if query["preview"] != nil {
        do {
          model.preview = try await apply(APIRequest.Apply(target: target.name, force: nil), dryRun: true)
        } catch {
          let payload = ErrorPayload.from(error).0
          model.previewError = [payload.error, payload.suggestion].compactMap { $0 }.joined(separator: " ")
        }
      }
      return Layout.page(title: "Apply", path: "/apply", csrf: csrf, body: ApplyPage.render(model, csrf: csrf))
    }
  }

  /// Signing in, the stylesheet and the script.
  private func addSessionRoutes(to router: Router<DashboardContext>) {
    router.get("login") { _, _ in
      Layout.page(title: "Sign in", path: "", csrf: csrf, body: LoginPage.render(failed: false))
    }
    router.post("login") { request, context in
      struct Login: Decodable { var token: String }
      let login = try await request.decode(as: Login.self, context: context)
      guard let token = configuration.token, AccessToken.matches(login.token, token) else {
        return Layout.page(
          title: "Sign in", path: "", csrf: csrf, body: LoginPage.render(failed: true), status: .unauthorized)
      }
      var response = Response(status: .seeOther, headers: [.location: "/"])
      response.setCookie(
        Cookie(
          name: AccessGuard<DashboardContext>.cookieName, value: token, path: "/", httpOnly: true, sameSite: .strict))
      return response
    }
    router.get("static/style.css") { _, _ in
      Response(
        status: .ok, headers: Layout.securityHeaders(type: "text/css; charset=utf-8"),
        body: .init(byteBuffer: ByteBuffer(string: Assets.css)))
    }
    router.get("static/app.js") { _, _ in
      Response(
        status: .ok, headers: Layout.securityHeaders(type: "text/javascript; charset=utf-8"),
        body: .init(byteBuffer: ByteBuffer(string: Assets.javascript)))
    }
  }
}
