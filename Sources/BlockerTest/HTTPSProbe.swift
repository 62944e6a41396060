import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// Probes like the AdOrNot app, for blockers that act on connections: resolve the name, then send an
/// HTTPS HEAD request to the address it resolved to.
///
/// A name that does not resolve, or resolves only to sinkhole addresses (where a connection is refused),
/// is blocked. Any HTTP response is reachable, and so is a TLS error after connecting (the connection was
/// made). A refused connection to a routable address, a reset or a timeout is inconclusive: it can be a
/// firewall or an outage.
public struct HTTPSProbe: Probe {
  /// Resolves a name to addresses (or fails with getaddrinfo's code and message).
  public typealias Resolve = @Sendable (String) async -> Result<[String], ResolveFailure>

  /// A failed name lookup.
  public struct ResolveFailure: Error, Sendable, Hashable {
    /// The resolver's error code (getaddrinfo's `EAI_…`).
    public var code: Int32
    /// Its message.
    public var message: String

    /// Creates a failure.
    public init(code: Int32, message: String) {
      self.code = code
      self.message = message
    }
  }

  /// Addresses that mean blocked.
  public var sinkholes: Sinkholes
  /// How long the request may take.
  public var timeout: Duration
  /// The port (443; tests use another).
  public var port: Int
  private let resolve: Resolve
  private let client: HTTPClient

  /// Creates a probe that sends its requests through `client` (see `makeClient`); by default names are
  /// resolved by the system resolver.
  public init(
    sinkholes: Sinkholes = Sinkholes(), timeout: Duration = .seconds(2), port: Int = 443, client: HTTPClient,
    resolve: Resolve? = nil
  ) {
    self.sinkholes = sinkholes
    self.timeout = timeout
    self.port = port
    self.client = client
    self.resolve = resolve ?? { name in await HTTPSProbe.systemResolve(name) }
  }

  /// An HTTP client for probing: one connection attempt each (no retries until the deadline, so a refused
  /// connection or a TLS failure is known at once), the connect timeout set to `timeout`, no redirects.
  /// Shut it down when the run ends.
  public static func makeClient(timeout: Duration, trustRoots: [String] = []) -> HTTPClient {
    var tls = TLSConfiguration.makeClientConfiguration()
    if !trustRoots.isEmpty { tls.additionalTrustRoots = trustRoots.map { .file($0) } }
    var configuration = HTTPClient.Configuration(
      tlsConfiguration: tls, redirectConfiguration: .disallow,
      timeout: HTTPClient.Configuration.Timeout(connect: .nanoseconds(nanoseconds(timeout))))
    configuration.connectionPool.retryConnectionEstablishment = false
    return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
  }

  public var kind: ProbeKind { .https }
  public var target: String { "HTTPS HEAD (port \(port))" }

  public func probe(_ hostname: String) async -> Verdict {
    let addresses: [String]
    switch await resolve(hostname) {
    case .failure(let failure):
      return SystemProbe(sinkholes: sinkholes).verdict(.failed(code: failure.code, message: failure.message))
    case .success(let found):
      addresses = found
    }
    let resolved = sinkholes.verdict(for: addresses)
    guard resolved.outcome == .reachable else {
      return Verdict(.blocked, "resolves to \(resolved.reason); the connection is refused", addresses: addresses)
    }
    let address = resolved.reason
    let host = address.contains(":") ? "[\(address)]" : address
    var request = HTTPClientRequest(url: "https://\(host):\(port)/")
    request.method = .HEAD
    request.headers.add(name: "Host", value: hostname)
    request.headers.add(name: "User-Agent", value: "SaneHosts blocker test")
    do {
      let response = try await client.execute(request, timeout: .nanoseconds(Int64(Self.nanoseconds(timeout))))
      return Verdict(.reachable, "HTTP \(response.status.code) from \(address)", addresses: addresses)
    } catch {
      return Self.verdict(for: error, address: address, addresses: addresses)
    }
  }

  /// The verdict for a failed request: a TLS failure means a connection was made (reachable); the rest is
  /// inconclusive.
  static func verdict(for error: any Error, address: String, addresses: [String]) -> Verdict {
    if error is NIOSSLError || error is BoringSSLError || error is NIOSSLExtraError {
      return Verdict(.reachable, "TLS error after connecting to \(address): \(error)", addresses: addresses)
    }
    if let error = error as? HTTPClientError {
      switch error {
      case .deadlineExceeded, .connectTimeout, .readTimeout:
        return Verdict(.inconclusive, "timeout connecting to \(address)", addresses: addresses)
      case .cancelled:
        return Verdict(.inconclusive, "cancelled", addresses: addresses)
      default:
        break
      }
    }
    let text = String(describing: error)
    if text.contains("onnection refused") || text.contains("ECONNREFUSED") {
      return Verdict(.inconclusive, "connection refused by \(address)", addresses: addresses)
    }
    return Verdict(.inconclusive, "\(address): \(text)", addresses: addresses)
  }

  /// The system resolver's addresses for a name (as the system probe looks them up).
  static func systemResolve(_ name: String) async -> Result<[String], ResolveFailure> {
    switch await SystemProbe.lookup(name) {
    case .addresses(let addresses): return .success(addresses)
    case .failed(let code, let message): return .failure(ResolveFailure(code: code, message: message))
    case nil: return .failure(ResolveFailure(code: -1, message: "cancelled"))
    }
  }

  static func nanoseconds(_ duration: Duration) -> Int64 {
    duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
  }
}
