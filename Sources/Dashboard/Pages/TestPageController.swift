import BlockerTest
import Foundation
import Hummingbird
import Loading
import Store

/// The Test page (`/test`, `test.mustache`): start a test, watch it (`/test/events` streams
/// `test-status.mustache` as it changes), then the latest report.
struct TestPageController: Sendable {
  /// The test job.
  let tests: TestService
  /// Server-Sent Events.
  let events: EventStream
  /// The templates.
  let renderer: PageRenderer

  /// `GET /`, `GET /events`.
  var routes: RouteCollection<DashboardContext> {
    let routes = RouteCollection(context: DashboardContext.self)
    routes.get { _, _ in
      let page = Page(
        status: tests.relay.currentValue, settings: Settings.load(from: tests.data),
        categories: try Registry.builtIn(with: tests.store).categories, latest: try History(store: tests.store).latest()
      )
      return renderer.page("test", title: "Test", section: "/test", model: page)
    }
    routes.get("events") { _, _ in
      events.fragments(tests.relay) { [renderer] in renderer.html("test-status", model: Status($0)) }
    }
    return routes
  }

  /// Where a test is: its state, a progress bar and a line of counts; Cancel while it runs.
  struct Status {
    var state: String
    var running: Bool
    var total: Int
    var done: Int
    var progress: String

    /// The status as the page shows it.
    init(_ status: TestStatus) {
      state = status.state.rawValue
      running = status.state == .running
      total = max(1, status.total)
      done = status.done
      progress = Self.text(status)
    }

    /// "42 of 128 domains, 30 blocked", or the message of an ended run.
    static func text(_ status: TestStatus) -> String {
      if status.state == .running {
        return status.total == 0
          ? "Checking the control domains…" : "\(status.done) of \(status.total) domains, \(status.blocked) blocked"
      }
      return status.message ?? ""
    }
  }

  /// What `test.mustache` shows.
  struct Page {
    struct Option {
      var value: String
      var label: String
      var selected: Bool
    }
    struct Category {
      var index: Int
      var name: String
    }

    var probes: [Option]
    var resolver: String
    var timeout: String
    var categories: [Category]
    var status: Status
    var latest: ReportView?

    /// The page: the form with the saved settings, the running (or last) test, the latest report.
    init(status: TestStatus, settings: Settings, categories: [String], latest: TestReport?) {
      probes = [("system", "System resolver"), ("dns", "A DNS server"), ("https", "HTTPS request")].map {
        Option(value: $0.0, label: $0.1, selected: settings.probe == $0.0)
      }
      resolver = settings.resolver
      timeout = String(settings.timeout)
      self.categories = categories.enumerated().map { Category(index: $0.offset, name: $0.element) }
      self.status = Status(status)
      self.latest = latest.map(ReportView.init)
    }
  }
}
