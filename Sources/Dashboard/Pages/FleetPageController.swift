import Foundation
import Hummingbird
import Store
import UseCases

/// The fleet (`/fleet`, `fleet.mustache`): the profile's replicas as last verified, and "Check now",
/// which asks each replica by its own answers (`FleetCheck`, as `fleet status` does) and shows the table.
struct FleetPageController: Sendable {
  /// The store.
  let store: Store
  /// The templates.
  let renderer: PageRenderer

  /// `GET /` (the replicas as last verified) and `POST /` (check them now).
  var routes: RouteCollection<DashboardContext> {
    let routes = RouteCollection(context: DashboardContext.self)
    routes.get { _, _ in
      renderer.page(
        "fleet", title: "Fleet", section: "/fleet", model: Page(replicas: try store.replicas(), now: Date()))
    }
    routes.post { _, _ in
      let sessions = PasswordPiholeSessions(
        password: try? PasswordPiholeSessions.password(file: nil, data: store.directory),
        userAgent: "sanehosts-dashboard")
      let reports = try await FleetCheck(store: store, sessions: sessions).run()
      return renderer.page("fleet", title: "Fleet", section: "/fleet", model: Page(checked: reports))
    }
    return routes
  }

  /// What `fleet.mustache` shows.
  struct Page {
    struct Row {
      var name: String
      var feed: String
      var address: String
      var verdict: String
      var verdictClass: String
      var serves: String
      var behind: String
      var detail: String?
    }

    var rows: [Row]
    /// Whether there is any replica (Mustache reads stored properties only).
    var hasRows: Bool
    var checked: Bool
    var summary: String?

    /// The replicas as stored: when each was last verified, nothing asked.
    init(replicas: [Replica], now: Date) {
      checked = false
      summary = nil
      rows = replicas.map { replica in
        Row(
          name: replica.name, feed: Self.feed(replica.feed), address: replica.resolver ?? replica.pihole ?? "-",
          verdict: replica.verifiedAt == nil ? "never verified" : "last verified",
          verdictClass: replica.verifiedAt == nil ? "warning" : "muted", serves: "-",
          behind: replica.verifiedAt.map { $0.formatted(date: .abbreviated, time: .shortened) } ?? "-", detail: nil)
      }
      hasRows = !rows.isEmpty
    }

    /// The reports of a check.
    init(checked reports: [ReplicaReport]) {
      checked = true
      let verified = reports.filter { $0.verdict == .verified }.count
      summary = "\(verified) of \(reports.count) replicas verified by their own answers."
      rows = reports.map { report in
        Row(
          name: report.name, feed: Self.feed(report.feed), address: report.address, verdict: report.verdict.rawValue,
          verdictClass: report.verdict == .verified ? "ok" : "error", serves: report.serves,
          behind: report.behind ?? "-",
          detail: report.detail.isEmpty ? nil : report.detail)
      }
      hasRows = !rows.isEmpty
    }

    static func feed(_ feed: Replica.Feed) -> String {
      switch feed {
      case .pihole: "Pi-hole API"
      case .transfer: "zone transfer"
      case .verifiedOnly: "verified only"
      }
    }
  }
}
