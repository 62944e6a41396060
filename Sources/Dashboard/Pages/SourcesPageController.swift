import Blocklists
import Catalog
import Foundation
import Hummingbird
import Loading
import Store
import UseCases

/// Sources and profiles (`/sources`, `sources.mustache`): update with progress and Cancel, the sources,
/// the catalog, presets, rules; `/sources/events` streams the update card as it changes.
struct SourcesPageController: Sendable {
  /// The store.
  let store: Store
  /// The update job.
  let updates: UpdateService
  /// Server-Sent Events.
  let events: EventStream
  /// The templates.
  let renderer: PageRenderer

  /// `GET /`, `GET /events`.
  var routes: RouteCollection<DashboardContext> {
    let routes = RouteCollection(context: DashboardContext.self)
    routes.get { _, _ in
      let profile = try store.activeProfile()
      let page = Page(
        profile: profile.name, profiles: try store.profiles().map(\.name),
        sources: try store.sources(in: profile.name).map { SourceSummary($0) },
        rules: try store.rules(in: profile.name),
        update: updates.relay.currentValue, catalog: Catalog.builtIn)
      return renderer.page("sources", title: "Sources", section: "/sources", model: page)
    }
    // The update card (`sources-update.mustache`) as it changes: the current one at once, then each change.
    routes.get("events") { _, _ in
      events.fragments(updates.relay) { [renderer] in renderer.html("sources-update", model: UpdateCard($0)) }
    }
    return routes
  }

  /// The update card: start, cancel, state and each source's progress.
  struct UpdateCard {
    /// One source's progress: its key, bar, phase and a Cancel for that source alone (shown while the run
    /// goes on and the source has not ended).
    struct Row {
      var key: String
      var phase: String
      var fraction: String
      var detail: String
      var cancellable: Bool
    }

    var running: Bool
    var state: String
    var step: String
    var message: String
    var rows: [Row]

    /// The card for an update's status.
    init(_ status: UpdateStatus) {
      running = status.state == .running
      state = status.state.rawValue
      step = status.step ?? ""
      message = status.message ?? ""
      rows = status.sources.map { [running] row in
        Row(
          key: row.key, phase: row.phase, fraction: String(format: "%.3f", row.fraction), detail: row.detail,
          cancellable: running && !row.isFinished)
      }
    }
  }

  /// One source's row: where it comes from, its status (held back, stale), counts, change, switches.
  struct SourceRow {
    var key: String
    var location: String
    var format: String
    var heldText: String?
    var status: String
    var statusMessage: String?
    var stale: String?
    var names: String
    var rejected: String?
    var before: String
    var change: String?
    var enabled: Bool

    /// The row of a source.
    init(_ source: SourceSummary) {
      key = source.key
      location = source.location
      format = source.format ?? "auto"
      // Held back as a suspicious shrink: said in the page's words, with what to do here.
      heldText = source.heldNames.map { held in
        "The new copy has \(held.counted("name")), under half of the \(source.accepted.map(\.grouped) ?? "?") in use: the copy in use is kept."
      }
      status = source.status
      statusMessage = source.message
      stale = source.stale?.description
      names = source.unique.map(\.grouped) ?? "–"
      rejected = source.rejected.flatMap { $0 > 0 ? $0.grouped : nil }
      before = source.previousUnique.map(\.grouped) ?? "–"
      change = source.change.map { $0 > 0 ? "+\($0.grouped)" : $0 < 0 ? "−\((-$0).grouped)" : "0" }
      enabled = source.enabled
    }
  }

  /// What `sources.mustache` shows.
  struct Page {
    struct Rule {
      var text: String
      var action: String
      var ruleWarning: String?
      /// `until 2026-11-28 16:04 (in 59 min)` for a rule that ends.
      var ends: String?
    }
    struct Profile {
      var name: String
      var active: Bool
    }
    struct Preset {
      var id: String
      var name: String
      var description: String
    }
    struct CatalogRow {
      var id: String
      var name: String
      var description: String
      var category: String
      var size: String
      var added: Bool
    }

    var profile: String
    var update: UpdateCard
    var sources: [SourceRow]
    var formats: [String]
    var rules: [Rule]
    var profiles: [Profile]
    var presets: [Preset]
    var catalog: [CatalogRow]

    /// The page for a profile, its sources and rules, the update's status and the catalog.
    init(
      profile: String, profiles: [String], sources: [SourceSummary], rules: [ProfileRule], update: UpdateStatus,
      catalog: Catalog
    ) {
      self.profile = profile
      self.update = UpdateCard(update)
      self.sources = sources.map(SourceRow.init)
      formats = InputFormat.allCases.map(\.rawValue)
      self.rules = rules.map { rule in
        Rule(
          text: rule.text, action: rule.action.rawValue, ruleWarning: rule.warning,
          ends: rule.expiresAt.map {
            "until \(Format.date($0)) \(Format.time($0)) (\(RuleEnd.remaining(until: $0, now: Date())))"
          })
      }
      self.profiles = profiles.map { Profile(name: $0, active: $0 == profile) }
      presets = catalog.presets.map { Preset(id: $0.id, name: $0.name, description: $0.description) }
      let added = Set(sources.map(\.location))
      self.catalog = catalog.sources.map { entry in
        CatalogRow(
          id: entry.id, name: entry.name, description: entry.description,
          category: catalog.category(id: entry.category)?.name ?? entry.category,
          size: entry.estimatedNames.grouped, added: added.contains(entry.url.absoluteString))
      }
    }
  }
}
