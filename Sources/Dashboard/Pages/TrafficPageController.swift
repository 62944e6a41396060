import Blocklists
import Foundation
import Hummingbird
import Traffic

/// Which lists block the network's queries (`/traffic`, `traffic.mustache`): hits per list as bars, dead
/// weight, the most asked blocked names, what the server answered against the profile; and the live feed
/// (`/traffic/feed`: each blocked query rendered as a `traffic-hit.mustache` item) with an Allow button per name.
struct TrafficPageController: Sendable {
  /// The query logs against the active profile.
  let traffic: TrafficReader
  /// Server-Sent Events.
  let events: EventStream
  /// The templates.
  let renderer: PageRenderer

  /// `GET /?since=…`, `GET /feed`.
  var routes: RouteCollection<DashboardContext> {
    let routes = RouteCollection(context: DashboardContext.self)
    routes.get { request, _ in
      let since = request.uri.queryParameters["since"].map(String.init) ?? "24h"
      var report: HitReport?
      var message: String?
      if !traffic.logs.isEmpty {
        do {
          report = try await traffic.report(since: since)
        } catch {
          let payload = ErrorPayload.from(error).0
          message = [payload.error, payload.suggestion].compactMap { $0 }.joined(separator: " ")
        }
      }
      let page = Page(report: report, hasLogs: !traffic.logs.isEmpty, since: since, error: message)
      return renderer.page("traffic", title: "Traffic", section: "/traffic", model: page)
    }
    routes.get("feed") { _, _ in feed() }
    return routes
  }

  /// The live feed: each blocked query as a `hit` event holding its rendered item, a failure to read a log
  /// as a `fragment` event holding the flash that says it.
  func feed() -> Response {
    let (traffic, renderer) = (traffic, renderer)
    return events.response { continuation in
      await traffic.follow(
        hit: { item in
          continuation.yield(EventStream.message("hit", text: renderer.html("traffic-hit", model: NameRow(item))))
        },
        failed: { message in
          let flash = renderer.html("flash", model: Flash(flash: message))
          continuation.yield(EventStream.message("fragment", text: flash))
        })
    }
  }

  /// The flash partial's model, alone.
  struct Flash {
    var flash: String
  }

  /// A blocked name with its Allow button (none when the profile lets it through already).
  struct NameRow {
    var name: String
    var detail: String
    var pending: Bool

    /// A name of the report: how often it was asked, and which lists block it.
    init(_ hits: HitReport.NameHits, pending: Bool) {
      name = hits.name
      detail = "\(hits.queries.grouped) × · \(hits.lists.joined(separator: ", "))"
      self.pending = pending
    }

    /// A query of the live feed: when, what type, which lists block it.
    init(_ item: FeedItem) {
      name = item.name
      let lists =
        item.lists.isEmpty ? "blocked by the server, in no list of the profile" : item.lists.joined(separator: ", ")
      detail = "\(item.time.map(Format.time) ?? "") \(item.type ?? "") · \(lists)"
      pending = item.notApplied
    }
  }

  /// A titled list of blocked names.
  struct NamesSection {
    var title: String
    var id: String
    var names: [NameRow]
  }

  /// What `traffic.mustache` shows.
  struct Page {
    struct Since {
      var value: String
      var label: String
      var selected: Bool
    }
    struct ListRow {
      var list: String
      var size: String
      var queries: String
      var onlyThis: String
      var share: String
    }
    struct Report {
      var summary: String
      var lists: [ListRow]
      var deadWeight: String?
      /// Per list overridden by allow rules: `ads (12 queries: =cdn.ads.website)`.
      var overridden: String?
      /// Lists each of whose hits another list blocks too.
      var safeToRemove: String?
      var top: NamesSection?
      var answered: NamesSection?
      var blind: String?
      var notApplied: String?
    }

    var hasLogs: Bool
    var since: [Since]
    var trafficError: String?
    var report: Report?

    /// The page for a report (none: no log, or it could not be read).
    init(report: HitReport?, hasLogs: Bool, since: String, error: String?) {
      self.hasLogs = hasLogs
      self.since = [("1h", "the last hour"), ("24h", "the last 24 hours"), ("7d", "the last 7 days")].map {
        Since(value: $0.0, label: $0.1, selected: $0.0 == since)
      }
      trafficError = error
      self.report = report.map(Self.report)
    }

    /// The lists allow rules overrode, with the queries let through and the rules; nil when none.
    static func overridden(_ report: HitReport) -> String? {
      let lists = report.lists.filter { $0.allowedQueries > 0 }
      guard !lists.isEmpty else { return nil }
      return lists.map {
        "\($0.list) (\($0.allowedQueries.counted("query", "queries")): \($0.allowedBy.joined(separator: ", ")))"
      }.joined(separator: "; ")
    }

    private static func report(_ report: HitReport) -> Report {
      // A name the profile lets through already (an allow rule not applied yet) gets no Allow button.
      let pending = Set(report.notApplied.map(\.name))
      func section(_ title: String, _ id: String, _ names: [HitReport.NameHits]) -> NamesSection? {
        names.isEmpty
          ? nil
          : NamesSection(title: title, id: id, names: names.map { NameRow($0, pending: pending.contains($0.name)) })
      }
      var answered: NamesSection?
      var blind: String?
      if let count = report.answeredButBlocked, count > 0 {
        answered = section(
          "Answered although the profile blocks them (\(count.grouped) \(count == 1 ? "query" : "queries")): is the server running what was applied?",
          "answered-names", report.answeredNames)
      } else if report.answeredButBlocked == nil, report.blocked > 0 {
        blind =
          "The logs cannot tell which queries the server blocked: \(report.blindReason ?? "they hold no block line")."
      }
      return Report(
        summary:
          "\(report.queries.counted("query", "queries")) for \(report.distinctNames.counted("name")); profile \(report.profile) blocks "
          + "\(report.blocked.grouped) of them (as \(report.server) applies it).",
        lists: report.lists.sorted(by: { ($0.queries, $1.list) > ($1.queries, $0.list) }).map { list in
          ListRow(
            list: list.list, size: list.size.grouped, queries: list.queries.grouped, onlyThis: list.onlyThis.grouped,
            share: Format.decimal(list.share * 100))
        },
        deadWeight: report.deadWeight.isEmpty
          ? nil : report.deadWeight.map { "\($0.list) (\($0.size.counted("name")))" }.joined(separator: ", "),
        overridden: Self.overridden(report),
        safeToRemove: report.safeToRemove.isEmpty ? nil : report.safeToRemove.map(\.list).joined(separator: ", "),
        top: section("Most asked blocked names", "top-names", report.top), answered: answered, blind: blind,
        notApplied: report.notApplied.isEmpty ? nil : report.notApplied.map(\.name).joined(separator: ", "))
    }
  }
}
