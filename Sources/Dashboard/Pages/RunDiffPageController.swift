import BlockerTest
import Foundation
import Hummingbird

/// What changed between two runs (`/diff?from=ID&to=ID`, `run-diff.mustache`), from the History page's form.
struct RunDiffPageController: Sendable {
  /// The saved runs.
  let reports: RunReports
  /// The templates.
  let renderer: PageRenderer

  /// `GET /?from=ID&to=ID`.
  var routes: RouteCollection<DashboardContext> {
    let routes = RouteCollection(context: DashboardContext.self)
    routes.get { request, _ in
      let (old, new) = try reports.pair(request)
      return renderer.page(
        "run-diff", title: "Compare runs", section: "/history", model: Page(RunDifference(from: old, to: new)))
    }
    return routes
  }

  /// What `run-diff.mustache` shows.
  struct Page {
    struct Group {
      var title: String
      var id: String
      var changes: [String]
    }

    var heading: String
    var groups: [Group]

    /// The page of a difference.
    init(_ difference: RunDifference) {
      heading = "Run \(difference.from.map(String.init) ?? "?") → run \(difference.to.map(String.init) ?? "?")"
      groups = [
        ("Newly blocked", difference.newlyBlocked, "newly-blocked"),
        ("Newly reachable", difference.newlyReachable, "newly-reachable"),
        ("Other changes", difference.other, "other-changes"),
      ].map { title, changes, id in
        Group(
          title: "\(title) (\(changes.count))", id: id,
          changes: changes.map { "\($0.hostname): \($0.before?.rawValue ?? "–") → \($0.after?.rawValue ?? "–")" })
      }
    }
  }
}
