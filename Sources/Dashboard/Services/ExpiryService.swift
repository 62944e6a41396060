import Foundation
import Logging
import ServiceLifecycle
import Store
import UseCases

/// Ends allow rules on time while the dashboard runs (`ExpiryWatcher`): the rule is removed and its
/// profile applied again everywhere it is applied. A ServiceLifecycle service, cancelled on graceful
/// shutdown; where the dashboard may not write a place (the Debian package runs it as its own user), the
/// package's sanehosts-expire.timer does it as root, and the reapply left pending is retried.
struct ExpiryService: Service {
  /// The watcher.
  let watcher: ExpiryWatcher<ContinuousClock>
  /// Where what it does is said.
  let logger: Logger
  /// The store whose rules it ends.
  let store: Store

  /// A watcher of `store`'s rules on the real clock; the fleet's Pi-holes signed in to with the saved
  /// password or PIHOLE_PASSWORD, when there is one. Every run that did something is logged: the rules
  /// ended, each place applied, and each reapply left pending with its reason and next try.
  init(store: Store, logger: Logger = Logger(label: "sanehosts.expiry")) {
    let password = (try? PasswordPiholeSessions.password(file: nil, data: store.directory)) ?? nil
    let sessions = PasswordPiholeSessions(password: password, userAgent: "sanehosts-dashboard")
    self.logger = logger
    self.store = store
    watcher = ExpiryWatcher(
      expiry: RuleExpiry(store: store, sessions: sessions), clock: ContinuousClock(),
      report: { Self.log($0, to: logger) })
  }

  /// Logs what one run did.
  static func log(_ outcome: RuleExpiry.Outcome, to logger: Logger) {
    for ended in outcome.ended {
      logger.info("allow rule ended: \(ended.rule) (profile \(ended.profile))")
    }
    for place in outcome.reapply?.places ?? [] {
      let text = "reapply \(place.target) \(place.path) (profile \(place.profile)): \(place.line)"
      if place.failed { logger.warning("\(text)") } else { logger.info("\(text)") }
    }
    for pending in outcome.pending {
      logger.warning(
        "reapply pending, \(pending.description); drop it with sanehosts reapply --drop-pending --profile \(pending.profile)"
      )
    }
  }

  /// Watches until graceful shutdown.
  func run() async throws {
    // A reapply left pending by an earlier run is said at once, not only when it is next tried.
    for pending in PendingReapply.all(in: store.directory) {
      logger.warning(
        "reapply pending, \(pending.description); drop it with sanehosts reapply --drop-pending --profile \(pending.profile)"
      )
    }
    try await cancelWhenGracefulShutdown { await watcher.run() }
  }
}
