import AsyncHTTPClient
import Foundation
import Loading
import NIOCore
import NIOHTTP1

/// A Pi-hole v6 API client: one session, logged in on first use, renewed when it expires, and always
/// logged out at the end (a client that leaks sessions locks users out of the API).
///
/// Use `withSession`, which logs out also when the body throws or is cancelled.
public actor PiholeClient {
  /// The session's state.
  enum State: Sendable, Equatable {
    /// Not logged in (yet, or any more).
    case loggedOut
    /// Logged in; `sid` is nil when the Pi-hole has no password set.
    case open(sid: String?)
    /// Logged out for good.
    case closed
  }

  /// The Pi-hole.
  public let host: PiholeHost
  private let password: String?
  private let totp: Int?
  private let http: HTTPClient
  private let timeout: Duration
  /// Sent as `User-Agent`, so the Pi-hole's session list says who holds the session.
  let userAgent: String
  private(set) var state: State = .loggedOut

  /// Creates a client; nothing is sent until the first request.
  public init(
    host: PiholeHost, password: String?, totp: Int? = nil, http: HTTPClient, timeout: Duration = .seconds(10),
    userAgent: String = "sanehosts"
  ) {
    self.userAgent = userAgent
    self.host = host
    self.password = password
    self.totp = totp
    self.http = http
    self.timeout = timeout
  }

  /// Runs `body` with a logged-in client and logs out afterwards, however `body` ends.
  public static func withSession<R: Sendable>(
    host: PiholeHost, password: String?, totp: Int? = nil, timeout: Duration = .seconds(10),
    userAgent: String = "sanehosts", _ body: (PiholeClient) async throws -> R
  ) async throws -> R {
    var configuration = HTTPClient.Configuration(
      redirectConfiguration: .disallow,
      timeout: HTTPClient.Configuration.Timeout(connect: .seconds(Int64(max(1, timeout.components.seconds)))))
    configuration.connectionPool.retryConnectionEstablishment = false
    let http = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    let client = PiholeClient(
      host: host, password: password, totp: totp, http: http, timeout: timeout, userAgent: userAgent)
    let result: Result<R, any Error>
    do {
      // Log in without inheriting a cancellation: a login cut off after the Pi-hole opened the session
      // would never learn its id, and the session would stay open, holding one of the Pi-hole's seats.
      try await Task.detached { try await client.login() }.value
      try Task.checkCancellation()
      result = .success(try await body(client))
    } catch {
      result = .failure(error)
    }
    // Log out even when the task was cancelled: a detached task does not inherit the cancellation, and it
    // is awaited here, so nothing outlives this call.
    await Task.detached { await client.logout() }.value
    try? await http.shutdown()
    return try result.get()
  }

  // MARK: Sessions

  /// Logs in (or learns that no password is set). The daemon refuses more than three logins in one
  /// second (429): then it waits a little over a second and tries again, twice at most.
  public func login() async throws {
    // The Loading library's retrying loader: three attempts, a fixed wait, only for that refusal (a
    // rate-limited two-factor code needs a new code, not the same one again).
    let attempts = RetryingLoader(
      TaskLoader { try await self.loginOnce() }, maximumAttempts: 3, backoff: .constant(loginRetryDelay),
      shouldRetry: { error in
        guard case PiholeError.rateLimited(let message, _) = error else { return false }
        return !message.contains("2FA")
      })
    await attempts.load()
    switch attempts.currentState {
    case .success: return
    case .failure(let failure): throw failure.error
    case .idle, .loading: throw CancellationError()
    }
  }

  /// How long to wait after a rate-limited login.
  let loginRetryDelay = Duration.milliseconds(1100)

  private func loginOnce() async throws {
    var body: [String: Any] = ["password": password ?? ""]
    if let totp { body["totp"] = totp }
    let (status, data) = try await raw(.POST, "auth", json: body, session: false)
    switch PiholeReply.login(status: status, body: data, passwordGiven: !(password ?? "").isEmpty) {
    case .success(let sid): state = .open(sid: sid)
    case .failure(let error): throw error
    }
  }

  /// Ends the session (ignoring errors: the server may already have dropped it).
  public func logout() async {
    defer { state = .closed }
    guard case .open(let sid?) = state else { return }
    _ = try? await raw(.DELETE, "auth", sid: sid, session: false)
  }

  // MARK: Requests

  /// Sends a request with the session, logging in again once if the session expired.
  func send(
    _ method: HTTPMethod, _ path: String, query: [(String, String)] = [], json: Any? = nil,
    closeConnection: Bool = false
  ) async throws -> (Int, Data) {
    if case .loggedOut = state { try await login() }
    guard case .open(let sid) = state else { throw PiholeError.unexpectedReply(detail: "the session is closed") }
    var (status, data) = try await raw(
      method, path, query: query, json: json, sid: sid, closeConnection: closeConnection)
    if status == 401, sid != nil {
      state = .loggedOut
      try await login()
      guard case .open(let renewed) = state else { throw PiholeError.unexpectedReply(detail: "the session is closed") }
      (status, data) = try await raw(
        method, path, query: query, json: json, sid: renewed, closeConnection: closeConnection)
    }
    // Right after a gravity run FTL reloads its database and refuses writes for about two seconds.
    var waited = Duration.zero
    while PiholeReply.isReadOnly(status: status, body: data) && waited < readOnlyPatience {
      try await Task.sleep(for: readOnlyRetryDelay)
      waited += readOnlyRetryDelay
      guard case .open(let current) = state else { break }
      (status, data) = try await raw(
        method, path, query: query, json: json, sid: current, closeConnection: closeConnection)
    }
    guard (200..<300).contains(status) else {
      throw PiholeReply.failure(status: status, body: data)
    }
    return (status, data)
  }

  /// How long a write refused by a read-only gravity database is retried, and how often.
  let readOnlyPatience = Duration.seconds(10)
  let readOnlyRetryDelay = Duration.milliseconds(250)

  /// Sends a request and passes its body on in whole lines as they arrive (a long-running action's log),
  /// on a connection that is closed afterwards.
  func stream(_ method: HTTPMethod, _ path: String, lines: (Data) -> Void) async throws {
    if case .loggedOut = state { try await login() }
    guard case .open(let sid) = state else { throw PiholeError.unexpectedReply(detail: "the session is closed") }
    var request = HTTPClientRequest(url: "\(host.apiBase)/\(path)")
    request.method = method
    if let sid { request.headers.add(name: "X-FTL-SID", value: sid) }
    request.headers.add(name: "User-Agent", value: userAgent)
    request.headers.add(name: "Connection", value: "close")
    let response: HTTPClientResponse
    do {
      response = try await http.execute(request, timeout: .seconds(3600))
    } catch {
      throw PiholeError.unreachable(host: host.apiBase, detail: Self.describe(error))
    }
    guard response.status.code == 200 else {
      let body = try await response.body.collect(upTo: 1 << 20)
      throw PiholeReply.failure(status: Int(response.status.code), body: Data(body.readableBytesView))
    }
    var pending = Data()
    for try await buffer in response.body {
      // Ctrl-C or SIGTERM: stop reading the log at the next chunk (the body does not always end by itself).
      try Task.checkCancellation()
      pending.append(contentsOf: buffer.readableBytesView)
      // Hand over everything up to the last line break; keep the rest for the next chunk.
      if let last = pending.lastIndex(where: { $0 == 10 || $0 == 13 }) {
        lines(pending[pending.startIndex...last])
        pending = Data(pending[(last + 1)...])
      }
    }
    if !pending.isEmpty { lines(pending) }
  }

  private func raw(
    _ method: HTTPMethod, _ path: String, query: [(String, String)] = [], json: Any? = nil, sid: String? = nil,
    session: Bool = true, closeConnection: Bool = false
  ) async throws -> (Int, Data) {
    var url = "\(host.apiBase)/\(path)"
    if !query.isEmpty { url += "?" + query.map { "\($0.0)=\(Self.encode($0.1))" }.joined(separator: "&") }
    var request = HTTPClientRequest(url: url)
    request.method = method
    request.headers.add(name: "Accept", value: "application/json")
    request.headers.add(name: "User-Agent", value: userAgent)
    if let sid { request.headers.add(name: "X-FTL-SID", value: sid) }
    if closeConnection { request.headers.add(name: "Connection", value: "close") }
    if let json {
      request.headers.add(name: "Content-Type", value: "application/json")
      request.body = .bytes(ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: json)))
    }
    do {
      let response = try await http.execute(request, timeout: .seconds(Int64(max(1, timeout.components.seconds))))
      let body = try await response.body.collect(upTo: 64 << 20)
      return (Int(response.status.code), Data(body.readableBytesView))
    } catch let error as PiholeError {
      throw error
    } catch {
      throw PiholeError.unreachable(host: host.apiBase, detail: Self.describe(error))
    }
  }

  /// Percent-encodes a path segment or query value (a list URL holds `:`, `/` and `?`; a session id `+`).
  static func encode(_ text: String) -> String {
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._~")
    return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
  }
}
