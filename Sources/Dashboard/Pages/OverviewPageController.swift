import BlockerTest
import Blocklists
import Foundation
import Hummingbird
import Loading
import UseCases

/// The overview (`/`, `overview.mustache`): active profile, names blocked, each source's freshness, the
/// last score, warnings, the subscription URLs. The page is rendered again only when the store or a job
/// changed, or a second passed (`PageCache`): GET / serves about 12,900 requests/s (release, wrk with 16
/// connections, here), 2,300 when rendered each time.
struct OverviewPageController: Sendable {
  /// The active profile's state, read again only after a write.
  let storeView: StoreView
  /// The update job's status.
  let update: StateRelay<UpdateStatus>
  /// The test job's status.
  let test: StateRelay<TestStatus>
  /// The templates.
  let renderer: PageRenderer
  /// The page last rendered, by the store's generation and the jobs' statuses.
  let cache = PageCache<CacheKey>()

  /// What the overview is rendered from, besides the time.
  struct CacheKey: Hashable, Sendable {
    var generation: Int64
    var update: UpdateStatus
    var test: TestStatus
    var pending: [PendingReapply]
  }

  /// `GET /`.
  var routes: RouteCollection<DashboardContext> {
    let routes = RouteCollection(context: DashboardContext.self)
    routes.get { _, _ in
      let (state, update, test) = (try storeView.current(), update.currentValue, test.currentValue)
      let pending = storeView.pendingReapplies()
      let key = CacheKey(generation: state.generation, update: update, test: test, pending: pending)
      let html = cache.page(for: key) {
        let page = Page(OverviewView(state, update: update, test: test, pending: pending))
        return renderer.document("overview", title: "Overview", section: "/", model: page)
      }
      return PageRenderer.response(html)
    }
    return routes
  }

  /// What `overview.mustache` shows.
  struct Page {
    /// The last test run, in short.
    struct LastTest {
      var id: String
      var gauge: GaugeView
      var age: String
      var probe: String
    }

    /// One source's row.
    struct Row {
      var key: String
      var name: String
      var status: String
      var enabled: Bool
      var names: String
      var updated: String
    }

    var profile: String
    var names: String
    var compiled: String
    var lastTest: LastTest?
    var updateState: String
    var testState: String
    var subscriptions: [String]
    var warnings: [String]
    var sources: [Row]

    /// The page for an overview.
    init(_ view: OverviewView, now: Date = Date()) {
      profile = view.profile
      names = view.names.map(\.grouped) ?? "0"
      compiled =
        view.compiledAt.map { "Compiled \(Format.age($0, now: now))" }
        ?? "Not compiled yet: run Update now on the Sources page."
      lastTest = view.lastTest.map { run in
        LastTest(
          id: String(run.id),
          gauge: GaugeView(
            Score(blocked: run.blocked, reachable: run.reachable, inconclusive: run.inconclusive),
            warning: run.scoreWarning),
          age: Format.age(run.startedAt, now: now), probe: run.probe)
      }
      updateState = view.update.state.rawValue
      testState = view.test.state.rawValue
      subscriptions = view.subscriptions
      warnings = view.warnings
      sources = view.sources.map { source in
        Row(
          key: source.key, name: source.name, status: source.status, enabled: source.enabled,
          names: source.unique.map(\.grouped) ?? "–", updated: Format.age(source.lastSuccess, now: now))
      }
    }
  }
}
