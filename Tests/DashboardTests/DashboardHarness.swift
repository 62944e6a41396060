import AsyncHTTPClient
import Dashboard
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import NIOHTTP1
import ServiceLifecycle
import Store
import TestSupport
import Traffic

/// A dashboard on a temporary data directory, hosts file and drop-in folder, for route and live tests.
struct DashboardHarness: Sendable {
  let directory: TemporaryDirectory
  let dashboard: Dashboard

  var data: DataDirectory { dashboard.configuration.data }
  var hostsFile: URL { directory.file("hosts") }

  /// A harness; `host` and `token` choose the access rules (the server binds 127.0.0.1 either way in tests).
  static func with<R: Sendable>(
    host: String = "127.0.0.1", token: String? = nil, queryLogs: [String] = [],
    headerTimeout: Duration = .seconds(10), _ body: (DashboardHarness) async throws -> R
  ) async throws -> R {
    let directory = try TemporaryDirectory(prefix: "sanehosts-dashboard")
    defer { directory.remove() }
    try Data("127.0.0.1 localhost\n# the user's own line\n".utf8).write(to: directory.file("hosts"))
    var configuration = DashboardConfiguration(
      host: host, port: 0, token: token, data: DataDirectory(url: directory.file("data")),
      hostsFile: directory.file("hosts").path, dropInDirectory: directory.file("dropins").path)
    configuration.queryLogs = queryLogs.map { LogSource(kind: .dnsmasq, path: directory.file($0).path) }
    configuration.headerTimeout = headerTimeout
    var dashboard = try Dashboard(configuration: configuration)
    dashboard.heartbeat = .milliseconds(200)
    return try await body(DashboardHarness(directory: directory, dashboard: dashboard))
  }

  /// Runs `body` against the router in-process (HummingbirdTesting's router framework).
  func routes<R: Sendable>(_ body: @Sendable (any TestClientProtocol) async throws -> R) async throws -> R {
    try await dashboard.application().test(.router) { client in try await body(client) }
  }

  /// Runs the real server on 127.0.0.1 and a free port; `body` gets a client for it. The server is then
  /// shut down gracefully, as on SIGTERM.
  func live<R: Sendable>(_ body: @Sendable (LiveClient) async throws -> R) async throws -> R {
    let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
    let app = dashboard.application(logger: Logger(label: "test")) { port in portContinuation.yield(port) }
    let services = ServiceGroup(
      configuration: .init(services: [app], gracefulShutdownSignals: [], logger: Logger(label: "test")))
    return try await withThrowingTaskGroup(of: R?.self) { group in
      group.addTask {
        try await services.run()
        return nil
      }
      var iterator = ports.makeAsyncIterator()
      guard let port = await iterator.next() else { throw CancellationError() }
      let client = LiveClient(port: port, csrf: dashboard.csrfToken)
      let result: Result<R, any Error>
      do {
        result = .success(try await body(client))
      } catch {
        result = .failure(error)
      }
      try? await client.http.shutdown()
      await services.triggerGracefulShutdown()
      while try await group.next() != nil {}
      return try result.get()
    }
  }
}

/// A small HTTP client for the live server: whole responses, or a stream of Server-Sent Events.
struct LiveClient: Sendable {
  /// A finished response.
  struct Reply: Sendable {
    var status: Int
    var headers: HTTPHeaders
    var body: String
    var json: [String: Any]? {
      (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any]
    }
  }

  let port: Int
  let csrf: String
  let http: HTTPClient = {
    var configuration = HTTPClient.Configuration()
    configuration.redirectConfiguration = .disallow
    return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
  }()

  var base: String { "http://127.0.0.1:\(port)" }

  /// Sends a request; `csrf: true` adds the page's CSRF token.
  func request(
    _ path: String, method: HTTPMethod = .GET, json: String? = nil, form: String? = nil, csrf: Bool = false,
    headers: [(String, String)] = []
  ) async throws -> Reply {
    var request = HTTPClientRequest(url: base + path)
    request.method = method
    if let json {
      request.headers.add(name: "Content-Type", value: "application/json")
      request.body = .bytes(ByteBuffer(string: json))
    }
    if let form {
      request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
      request.body = .bytes(ByteBuffer(string: form))
    }
    if csrf { request.headers.add(name: "X-CSRF-Token", value: self.csrf) }
    for (name, value) in headers { request.headers.replaceOrAdd(name: name, value: value) }
    let response = try await http.execute(request, timeout: .seconds(30))
    let body = try await response.body.collect(upTo: 64 << 20)
    return Reply(status: Int(response.status.code), headers: response.headers, body: String(buffer: body))
  }

  /// Reads the raw text of `path` (a Server-Sent Events stream) until `marker` appears, for at most `seconds`.
  func text(_ path: String, until marker: String, seconds: Int64 = 30) async throws -> String {
    let response = try await http.execute(HTTPClientRequest(url: base + path), timeout: .seconds(seconds))
    var text = ""
    for try await chunk in response.body {
      text += String(buffer: chunk)
      if text.contains(marker) { break }
    }
    return text
  }

  /// Reads the Server-Sent Events of `path` until `until` holds for a status (returned), for at most `seconds`.
  func events(
    _ path: String, seconds: Int64 = 60, headers: [(String, String)] = [],
    until: @Sendable ([String: Any]) -> Bool
  ) async throws -> [[String: Any]] {
    var request = HTTPClientRequest(url: base + path)
    for (name, value) in headers { request.headers.add(name: name, value: value) }
    let response = try await http.execute(request, timeout: .seconds(seconds))
    var pending = ""
    var statuses: [[String: Any]] = []
    for try await chunk in response.body {
      pending += String(buffer: chunk)
      while let end = pending.range(of: "\n\n") {
        let message = pending[..<end.lowerBound]
        pending = String(pending[end.upperBound...])
        for line in message.split(separator: "\n") where line.hasPrefix("data: ") {
          let object = (try? JSONSerialization.jsonObject(with: Data(line.dropFirst(6).utf8))) as? [String: Any]
          if let object {
            statuses.append(object)
            if until(object) { return statuses }
          }
        }
      }
    }
    return statuses
  }
}

extension TestResponse {
  /// The body as text.
  var text: String { String(buffer: body) }
  /// The body as a JSON object.
  var json: [String: Any]? { (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] }
  /// The body as a JSON array.
  var jsonArray: [[String: Any]]? { (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [[String: Any]] }
}

/// A controller's routes as `METHOD /path`, mounted at `path` as the dashboard mounts it.
func mountedRoutes(_ collection: RouteCollection<DashboardContext>, at path: String) throws -> [String] {
  let router = Router(context: DashboardContext.self)
  router.addRoutes(collection, atPath: RouterPath(path))
  try router.validate()
  return router.routes.map { "\($0.method) \($0.path)" }.sorted()
}

extension TestClientProtocol {
  /// A POST with a JSON body and the CSRF token.
  func post(_ uri: String, json: String = "{}", csrf: String) async throws -> TestResponse {
    try await execute(
      uri: uri, method: .post,
      headers: [.contentType: "application/json", HTTPField.Name("X-CSRF-Token")!: csrf],
      body: ByteBuffer(string: json))
  }

  /// A GET.
  func get(_ uri: String, headers: HTTPFields = [:]) async throws -> TestResponse {
    try await execute(uri: uri, method: .get, headers: headers)
  }
}
