import Foundation
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

  /// A watcher of `store`'s rules on the real clock; the fleet's Pi-holes signed in to with the saved
  /// password or PIHOLE_PASSWORD, when there is one.
  init(store: Store) {
    let password = (try? PasswordPiholeSessions.password(file: nil, data: store.directory)) ?? nil
    let sessions = PasswordPiholeSessions(password: password, userAgent: "sanehosts-dashboard")
    watcher = ExpiryWatcher(expiry: RuleExpiry(store: store, sessions: sessions), clock: ContinuousClock())
  }

  /// Watches until graceful shutdown.
  func run() async throws {
    try await cancelWhenGracefulShutdown { await watcher.run() }
  }
}
