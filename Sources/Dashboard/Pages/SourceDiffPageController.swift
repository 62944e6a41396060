import Blocklists
import Foundation
import Hummingbird
import Store

/// What a source's last update changed, or what its held-back copy would change
/// (`/sources/:key/diff[?held=1]`, `source-diff.mustache`), with Accept for a held copy.
struct SourceDiffPageController: Sendable {
  /// The store.
  let store: Store
  /// The templates.
  let renderer: PageRenderer

  /// `GET /` (mounted at the source's path, `/sources/:key/diff`).
  var routes: RouteCollection<DashboardContext> {
    let routes = RouteCollection(context: DashboardContext.self)
    routes.get { request, context in
      let key = try context.parameters.require("key")
      let held = request.uri.queryParameters["held"].map { $0 == "1" || $0 == "true" } ?? false
      let difference = try await store.difference(of: key, held: held, limit: 500)
      return renderer.page(
        "source-diff", title: "\(key): changes", section: "/sources",
        model: Page(key: key, held: held, difference: difference))
    }
    return routes
  }

  /// What `source-diff.mustache` shows.
  struct Page {
    /// The names added or removed, cut to the first ones.
    struct Names {
      var title: String
      var id: String
      var names: [String]
      var more: String?
    }
    /// The two copies compared.
    struct Difference {
      var summary: String
      var lists: [Names]
    }

    var key: String
    var held: Bool
    var heading: String
    var nothing: String
    var difference: Difference?

    /// The page of a source's difference (none: there is one copy only, or none held back).
    init(key: String, held: Bool, difference: Store.CopyDifference?) {
      self.key = key
      self.held = held
      heading = held ? "\(key): the copy held back" : "\(key): the last change"
      nothing =
        held
        ? "\(key) has no copy held back: there is nothing to compare."
        : "\(key) has only one copy so far: there is nothing to compare yet."
      self.difference = difference.map { difference in
        let summary =
          "\(difference.from) copy \(difference.before.counted("name")) → \(difference.to) copy \(difference.after.counted("name")): \(difference.addedCount.grouped) added, \(difference.removedCount.grouped) removed."
        let lists = [
          ("Added", difference.added, difference.addedCount, "diff-added"),
          ("Removed", difference.removed, difference.removedCount, "diff-removed"),
        ].map { title, names, count, id in
          Names(
            title: "\(title) (\(count.grouped))", id: id, names: names,
            more: count > names.count ? (count - names.count).grouped : nil)
        }
        return Difference(summary: summary, lists: lists)
      }
    }
  }
}
