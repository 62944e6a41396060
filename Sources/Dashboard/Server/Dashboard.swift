import Downloads
import Foundation
import Hummingbird
import HummingbirdCore
import Locking
import Logging
import NIOCore
import Store
import Updates

/// The local web dashboard: pages, a JSON API, live progress over Server-Sent Events, list subscriptions.
///
/// It owns what the controllers share (the store, the jobs and their runner, the caches) and wires one
/// controller per page and per API resource into the router (`router()`); each controller holds only
/// what it uses.
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
  /// Ends allow rules on time.
  let expiry: ExpiryService
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
    expiry = ExpiryService(store: store)
    downloads = DownloadConfiguration()
    downloads.temporaryDirectory = configuration.data.staging
  }

  /// The router: every page, API resource and list subscription, each from its controller, behind the
  /// access guard.
  public func router() -> Router<DashboardContext> {
    let router = Router(context: DashboardContext.self)
    let renderer = PageRenderer(csrf: csrf)
    router.middlewares.add(ErrorMiddleware(renderer: renderer))
    router.middlewares.add(
      AccessGuard(
        token: configuration.isLoopback ? nil : configuration.token, csrf: csrf, loopback: configuration.isLoopback,
        renderer: renderer))
    addPages(to: router, renderer: renderer)
    addAPI(to: router)
    router.addRoutes(ListsController(lists: lists).routes, atPath: "/lists")
    router.addRoutes(
      MetricsController(store: store, logs: configuration.queryLogs, version: configuration.version).routes,
      atPath: "/metrics")
    return router
  }

  /// The pages: a template, a controller and this one line each.
  private func addPages(to router: Router<DashboardContext>, renderer: PageRenderer) {
    let (update, test) = (updates.relay, tests.relay)
    router.addRoutes(
      OverviewPageController(storeView: storeView, update: update, test: test, renderer: renderer).routes, atPath: "/")
    router.addRoutes(
      SourcesPageController(store: store, updates: updateService, events: events, renderer: renderer).routes,
      atPath: "/sources")
    router.addRoutes(SourceDiffPageController(store: store, renderer: renderer).routes, atPath: "/sources/:key/diff")
    router.addRoutes(WhyPageController(why: why, renderer: renderer).routes, atPath: "/why")
    router.addRoutes(
      TrafficPageController(traffic: trafficReader, events: events, renderer: renderer).routes, atPath: "/traffic")
    router.addRoutes(OverlapPageController(store: store, renderer: renderer).routes, atPath: "/overlap")
    router.addRoutes(
      TestPageController(tests: testService, events: events, renderer: renderer).routes, atPath: "/test")
    router.addRoutes(HistoryPageController(reports: reports, renderer: renderer).routes, atPath: "/history")
    router.addRoutes(RunDiffPageController(reports: reports, renderer: renderer).routes, atPath: "/diff")
    router.addRoutes(ApplyPageController(applier: applier, renderer: renderer).routes, atPath: "/apply")
    router.addRoutes(FleetPageController(store: store, renderer: renderer).routes, atPath: "/fleet")
    router.addRoutes(
      LoginPageController(token: configuration.token, renderer: renderer).routes, atPath: "/login")
    router.addRoutes(AssetsController().routes, atPath: "/static")
  }

  /// The JSON API: a controller per resource, each mounted at its path.
  private func addAPI(to router: Router<DashboardContext>) {
    router.addRoutes(
      StatusController(storeView: storeView, update: updates.relay, test: tests.relay).routes, atPath: "/api/status")
    router.addRoutes(SessionController(csrf: csrf).routes, atPath: "/api/session")
    router.addRoutes(SourcesController(store: store).routes, atPath: "/api/sources")
    router.addRoutes(CatalogController().routes, atPath: "/api/catalog")
    router.addRoutes(PresetsController(store: store).routes, atPath: "/api/presets")
    router.addRoutes(WhyController(why: why).routes, atPath: "/api/why")
    router.addRoutes(OverlapController(store: store).routes, atPath: "/api/overlap")
    router.addRoutes(ProfilesController(store: store).routes, atPath: "/api/profiles")
    router.addRoutes(RulesController(store: store).routes, atPath: "/api/rules")
    router.addRoutes(SettingsController(data: configuration.data).routes, atPath: "/api/settings")
    router.addRoutes(UpdateController(updates: updateService, events: events).routes, atPath: "/api/update")
    router.addRoutes(TestController(tests: testService, events: events).routes, atPath: "/api/test")
    router.addRoutes(HistoryController(reports: reports).routes, atPath: "/api/history")
    router.addRoutes(RunDiffController(reports: reports).routes, atPath: "/api/diff")
    router.addRoutes(ApplyController(applier: applier).routes, atPath: "/api/apply")
    router.addRoutes(BackupsController(applier: applier).routes, atPath: "/api/backups")
    router.addRoutes(RestoreController(applier: applier).routes, atPath: "/api/restore")
    router.addRoutes(TrafficController(traffic: trafficReader, events: events).routes, atPath: "/api/traffic")
  }

  // MARK: Services the controllers share

  /// Updating the active profile, as a job.
  var updateService: UpdateService {
    UpdateService(job: updates, sources: updateSources, runner: runner, store: store, downloads: downloads)
  }
  /// The blocker test, as a job.
  var testService: TestService { TestService(job: tests, runner: runner, store: store, data: configuration.data) }
  /// Applying to the configured files.
  var applier: ApplyService { ApplyService(configuration: configuration, store: store) }
  /// The saved test runs.
  var reports: RunReports { RunReports(store: store) }
  /// The configured query logs.
  var trafficReader: TrafficReader { TrafficReader(store: store, logs: configuration.queryLogs) }
  /// Server-Sent Events with this dashboard's heartbeat.
  var events: EventStream { EventStream(heartbeat: heartbeat, clock: clock) }

  /// The HTTP/1.1 channel: slow heads and refused bodies shed (`RequestLimits`), idle connections closed.
  func http1(logger: Logger) -> HTTP1Channel.Configuration {
    let components = configuration.headerTimeout.components
    let timeout = TimeAmount.nanoseconds(components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000)
    return HTTP1Channel.Configuration(
      additionalChannelHandlers: [RequestLimits(headerTimeout: timeout, logger: logger)], idleTimeout: .seconds(120))
  }

  /// The server; `onRunning` gets the port it listens on (useful with port 0).
  public func application(
    logger: Logger = Logger(label: "sanehosts.dashboard"), onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
  ) -> some ApplicationProtocol {
    Application(
      responder: HeadAsGet(inner: router().buildResponder()),
      server: .http1(configuration: http1(logger: logger)),
      configuration: .init(
        address: .hostname(configuration.host, port: configuration.port), serverName: "SaneHosts"),
      services: [runner, expiry],
      onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? configuration.port) },
      logger: logger)
  }
}
