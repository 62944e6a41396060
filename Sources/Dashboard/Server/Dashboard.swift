import Downloads
import Foundation
import Hummingbird
import Locking
import Logging
import NIOCore
import Store
import Updates

/// The local web dashboard: pages, a JSON API, live progress over Server-Sent Events, list subscriptions.
///
/// Create it with a configuration, then run `application()` (a Hummingbird application with
/// ServiceLifecycle: SIGINT and SIGTERM shut it down cleanly, cancelling a running update or test).
public struct Dashboard: Sendable {
  /// Where it listens and what it changes.
  public let configuration: DashboardConfiguration
  /// The store.
  let store: Store
  /// The CSRF token of this server run, embedded in every page.
  let csrf: String
  /// The CSRF token, for scripts and tests that drive the API the way the pages do.
  public var csrfToken: String { csrf }
  /// The update job.
  let updates = Job<UpdateStatus>(name: "update")
  /// Cancels single sources of the running (or last) update.
  let updateSources = Locked(SourceCancellation())
  /// The blocker-test job.
  let tests = Job<TestStatus>(name: "blocker test")
  /// Runs the jobs.
  let runner = JobRunner()
  /// The subscription lists.
  let lists: ListCache
  /// The Why? box's debounced searches.
  let why: WhySearch
  /// What the pages show of the store, read again only after a write.
  let storeView: StoreView
  /// Downloads for updates (tests shorten the timeouts).
  public var downloads: DownloadConfiguration
  /// How often an idle event stream sends a comment, so a closed page is noticed.
  public var heartbeat: Duration = .seconds(15)
  /// The clock of the event-stream heartbeat.
  public var clock: any Clock<Duration> = ContinuousClock()

  /// Opens the store and checks the configuration: off loopback a token of at least 16 characters
  /// (letters, digits, `-._~`) is required.
  public init(configuration: DashboardConfiguration) throws {
    if !configuration.isLoopback {
      guard let token = configuration.token else { throw DashboardError.tokenRequired(host: configuration.host) }
      if token.count < 16 { throw DashboardError.weakToken(length: token.count) }
      if !token.unicodeScalars.allSatisfy({
        $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "-._~".unicodeScalars.contains($0))
      }) {
        throw DashboardError.invalidToken
      }
    }
    self.configuration = configuration
    store = try Store.open(configuration.data)
    csrf = AccessToken.random()
    lists = ListCache(store: store)
    why = WhySearch(store: store)
    storeView = StoreView(store: store)
    downloads = DownloadConfiguration()
    downloads.temporaryDirectory = configuration.data.staging
  }

  /// The router with every page, API route and list subscription, behind the access guard.
  public func router() -> Router<DashboardContext> {
    let router = Router(context: DashboardContext.self)
    router.middlewares.add(ErrorMiddleware())
    router.middlewares.add(
      AccessGuard(
        token: configuration.isLoopback ? nil : configuration.token, csrf: csrf, loopback: configuration.isLoopback))
    addPageRoutes(to: router)
    addAPIRoutes(to: router)
    addListRoutes(to: router)
    return router
  }

  /// The server; `onRunning` gets the port it listens on (useful with port 0).
  public func application(
    logger: Logger = Logger(label: "sanehosts.dashboard"), onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
  ) -> some ApplicationProtocol {
    Application(
      responder: HeadAsGet(inner: router().buildResponder()),
      configuration: .init(
        address: .hostname(configuration.host, port: configuration.port), serverName: "SaneHosts"),
      services: [runner],
      onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? configuration.port) },
      logger: logger)
  }
}
