import Blocklists
import Foundation
import Hummingbird
import Store
import UseCases

/// What each list adds and how much the lists overlap (`/overlap`, `overlap.mustache`): unique
/// contributions as bars, the matrix as a heatmap.
struct OverlapPageController: Sendable {
  /// The store.
  let store: Store
  /// The templates.
  let renderer: PageRenderer

  /// `GET /`.
  var routes: RouteCollection<DashboardContext> {
    let routes = RouteCollection(context: DashboardContext.self)
    routes.get { _, _ in
      renderer.page("overlap", title: "Overlap", section: "/overlap", model: Page(try await Overlap.report(in: store)))
    }
    return routes
  }

  /// What `overlap.mustache` shows.
  struct Page {
    struct Source {
      var number: Int
      var key: String
      var note: String?
      var names: String
      var unique: String
      var uniquePercent: String
      var sharePercent: String
    }
    struct Cell {
      var isSelf: Bool
      var level: Int
      var title: String
      var percent: Int
    }
    struct Row {
      var number: Int
      var key: String
      var cells: [Cell]
    }
    /// The heatmap: a row per list, a cell per other list.
    struct Matrix {
      var rows: [Row]
    }

    var summary: String?
    var sources: [Source]
    var matrix: Matrix?

    /// The page of a report.
    init(_ report: Overlap.Report) {
      summary =
        report.sources.isEmpty
        ? nil
        : "Profile \(report.profile): \(report.sources.count) enabled lists, \(report.total.grouped) distinct names (before rules)."
      sources = report.sources.enumerated().map { index, source in
        Source(
          number: index + 1, key: source.key, note: source.note, names: source.names.grouped,
          unique: source.unique.grouped, uniquePercent: Format.decimal(source.uniquePercent),
          sharePercent: Format.decimal(source.sharePercent))
      }
      guard report.sources.count > 1 else { return }
      matrix = Matrix(
        rows: report.sources.indices.map { row in
          Row(
            number: row + 1, key: report.sources[row].key,
            cells: report.sources.indices.map { column in
              let percent = row == column ? 0 : report.percent(of: row, in: column)
              return Cell(
                isSelf: row == column, level: Int((percent / 10).rounded()),
                title: "\(report.sources[row].key) in \(report.sources[column].key)", percent: Int(percent.rounded()))
            })
        })
    }
  }
}
