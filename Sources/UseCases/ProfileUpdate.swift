import Downloads
import Foundation
import Store
import Updates

/// An update of a profile's sources with its list health, once for `sanehosts update` and the
/// dashboard: one download manager for the run, the updater's events to the caller, then which sources
/// were held back as a suspicious shrink and which are stale.
public struct ProfileUpdate: Sendable {
  /// The profile (nil: the active one).
  public var profile: String?
  /// How the updater runs.
  public var options: Updater.Options
  /// How downloads run (its staging folder is the store's).
  public var downloads: DownloadConfiguration
  /// A source not updated for this many days is stale.
  public var staleDays: Int

  /// An update of `profile` (nil: the active one).
  public init(
    profile: String? = nil, options: Updater.Options = Updater.Options(),
    downloads: DownloadConfiguration = DownloadConfiguration(), staleDays: Int = 30
  ) {
    self.profile = profile
    self.options = options
    self.downloads = downloads
    self.staleDays = staleDays
  }

  /// What a run gave: the updater's summary and the profile's list health after it.
  public struct Outcome: Sendable {
    /// The updater's summary.
    public var summary: UpdateSummary
    /// Held and stale sources.
    public var health: UpdateHealth
  }

  /// Runs the update in `store`, each event to `events`. `around` runs the update itself and is given
  /// the way to stop every download at once, for a caller that cancels on a signal or a button (by
  /// default the update just runs).
  public func run(
    in store: Store, cancellation: SourceCancellation = SourceCancellation(),
    events: @escaping @Sendable (UpdateEvent) -> Void = { _ in },
    around:
      @Sendable (
        _ cancelDownloads: @escaping @Sendable () async -> Void,
        _ update: @escaping @Sendable () async throws -> UpdateSummary
      ) async throws -> UpdateSummary = { try await $1() }
  ) async throws -> Outcome {
    var configuration = downloads
    configuration.temporaryDirectory = store.directory.staging
    let (profile, options) = (self.profile, self.options)
    let summary = try await DownloadManager.withManager(configuration: configuration) { manager in
      try await around({ await manager.cancelAll() }) {
        try await Updater(store: store, client: manager).update(
          profile: profile, options: options, cancellation: cancellation, events: events)
      }
    }
    return Outcome(summary: summary, health: UpdateHealth(summary: summary, store: store, staleDays: staleDays))
  }
}

/// A profile's list health after an update: sources held back as a suspicious shrink, and stale ones.
public struct UpdateHealth: Encodable, Sendable {
  /// A source whose list has not changed for too long, or whose updates keep failing.
  public struct Stale: Encodable, Sendable {
    /// The source's key.
    public var source: String
    /// Why it is stale.
    public var reason: String
    /// Since when.
    public var since: Date
    /// For how many days.
    public var days: Int
    /// What to tell the user.
    public var message: String
  }

  /// `health`, for the JSON event stream.
  public var event = "health"
  /// Sources whose new copy was held back (a suspicious shrink): they need a decision.
  public var held: [String]
  /// Enabled sources that are stale.
  public var stale: [Stale]

  /// The health of `summary`'s profile in `store`.
  public init(summary: UpdateSummary, store: Store, staleDays: Int) {
    held = summary.outcomes.compactMap { key, outcome in
      if case .failed(let failure) = outcome, failure.kind == .suspiciousShrink { return key }
      return nil
    }
    let sources = (try? store.sources(in: summary.run.profileName)) ?? []
    stale = sources.filter(\.enabled).compactMap { member in
      member.source.staleness(days: staleDays).map {
        Stale(
          source: member.source.key, reason: $0.reason.rawValue, since: $0.since, days: $0.days,
          message: $0.description)
      }
    }
  }
}
