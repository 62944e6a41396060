import Apply
import DNS
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A real Pi-hole FTL v6.4.1 daemon, from `../shared/tools/pihole-ftl` (its README): the API on
/// 127.0.0.1 and a free port, DNS on 127.0.0.1 and another, an offline upstream (`fakedns.py`: every A
/// is 93.184.215.14) and every file it writes in a temporary folder, in a private mount namespace.
///
/// A plain clone has no `../shared`: suites using it are enabled with `RealPihole.isAvailable` and say
/// `RealPihole.unavailable` when skipped. Use `RealPihole.with(...)`, which always stops the daemon.
public final class RealPihole: Sendable {
  /// The folder holding `sandbox.sh`: `SANEHOSTS_PIHOLE_FTL`, else `../shared/tools/pihole-ftl` beside the
  /// repository.
  public static let directory: URL = {
    if let explicit = ProcessInfo.processInfo.environment["SANEHOSTS_PIHOLE_FTL"] {
      return URL(fileURLWithPath: explicit)
    }
    return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appending(path: "shared/tools/pihole-ftl")
  }()

  /// Whether a real FTL can run here: the sandbox is present, python3 and unshare are, and the tests run as root.
  public static var isAvailable: Bool {
    let files = FileManager.default
    return getuid() == 0 && files.isExecutableFile(atPath: directory.appending(path: "sandbox.sh").path)
      && files.isExecutableFile(atPath: "/usr/bin/python3") && files.isExecutableFile(atPath: "/usr/bin/unshare")
  }

  /// Why suites on the real FTL are skipped when it is not available.
  public static let unavailable =
    "needs the real Pi-hole FTL v6.4.1 in ../shared/tools/pihole-ftl (or SANEHOSTS_PIHOLE_FTL), python3, unshare and root"

  /// The web interface password.
  public let password = "test123"
  /// The API's port on 127.0.0.1.
  public let webPort: UInt16
  /// The DNS port on 127.0.0.1.
  public let dnsPort: UInt16
  /// Where its files go (`$PH_STATE`).
  public let state: TemporaryDirectory
  private let daemon: ChildProcess
  private let upstream: ChildProcess

  /// `http://127.0.0.1:PORT`, as `--pihole` takes it.
  public var baseURL: String { "http://127.0.0.1:\(webPort)" }
  /// `127.0.0.1:PORT`, its DNS server as `--resolver` takes it.
  public var resolver: String { "127.0.0.1:\(dnsPort)" }
  /// Its DNS server.
  public var dnsServer: ServerAddress { ServerAddress(ip: .v4(IPv4Address("127.0.0.1")!), port: dnsPort) }

  /// The address the offline upstream answers for every A query: what an unblocked name resolves to.
  public static let upstreamAddress = "93.184.215.14"

  private init(
    webPort: UInt16, dnsPort: UInt16, state: TemporaryDirectory, daemon: ChildProcess, upstream: ChildProcess
  ) {
    self.webPort = webPort
    self.dnsPort = dnsPort
    self.state = state
    self.daemon = daemon
    self.upstream = upstream
  }

  /// Starts a Pi-hole, runs `body` with it, and always stops it.
  public static func with<R>(_ body: (RealPihole) async throws -> R) async throws -> R {
    let pihole = try await start()
    do {
      let result = try await body(pihole)
      await pihole.stop()
      return result
    } catch {
      await pihole.stop()
      throw error
    }
  }

  /// What the daemon and its sandbox printed, for a failing test's message.
  public func log() -> String {
    (try? String(contentsOf: state.file("sandbox.log"), encoding: .utf8)) ?? ""
  }

  private static func start() async throws -> RealPihole {
    let state = try TemporaryDirectory(prefix: "sanehosts-ftl")
    let (webPort, dnsPort, upstreamPort) = (try FreePort.forDNS(), try FreePort.forDNS(), try FreePort.forDNS())
    let log = open(state.file("sandbox.log").path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
    defer { close(log) }
    let upstream = try ChildProcess(
      "/usr/bin/python3", [directory.appending(path: "fakedns.py").path, "\(upstreamPort)"], standardOutput: log,
      standardError: log)
    let daemon: ChildProcess
    do {
      daemon = try ChildProcess(
        "/usr/bin/env",
        [
          "PH_STATE=\(state.file("ftl").path)", "PH_WEB=127.0.0.1:\(webPort)", "PH_DNS_PORT=\(dnsPort)",
          "PH_UPSTREAM=127.0.0.1#\(upstreamPort)", "/usr/bin/unshare", "--mount", "--propagation", "private",
          directory.appending(path: "sandbox.sh").path,
        ], standardOutput: log, standardError: log)
    } catch {
      await upstream.stop()
      throw error
    }
    let pihole = RealPihole(webPort: webPort, dnsPort: dnsPort, state: state, daemon: daemon, upstream: upstream)
    let deadline = ContinuousClock.now + .seconds(60)
    while ContinuousClock.now < deadline, !daemon.hasExited {
      if await pihole.isReady() { return pihole }
      try? await Task.sleep(for: .milliseconds(100))
    }
    let text = pihole.log()
    await pihole.stop()
    throw StartError(detail: text)
  }

  /// Whether the API answers its login page and DNS answers a query.
  private func isReady() async -> Bool {
    let port = webPort
    let login = await onOwnThread { Self.request("GET", "/api/info/login", port: port) }
    guard login?.contains("\"dns\":true") == true else { return false }
    return (try? await Resolver(server: dnsServer).query("example.com", .a, timeout: .milliseconds(500))) != nil
  }

  /// Stops the daemon (SIGTERM, as its README says) and the upstream, and removes its files.
  public func stop() async {
    await daemon.stop(grace: .seconds(10))
    await upstream.stop()
    state.remove()
  }

  /// Switches its blocking on or off through its own API (`POST /api/dns/blocking`), as `pihole disable`
  /// does; returns the reply.
  @discardableResult
  public func setBlocking(_ on: Bool) async throws -> String {
    let (port, password) = (webPort, password)
    return try await onOwnThread { () -> Result<String, StartError> in
      let login = Self.request("POST", "/api/auth", port: port, body: "{\"password\":\"\(password)\"}") ?? ""
      guard let range = login.range(of: "\"sid\":\""),
        let end = login[range.upperBound...].firstIndex(of: "\"")
      else { return .failure(StartError(detail: "no session: \(login)")) }
      let sid = String(login[range.upperBound..<end])
      let reply =
        Self.request(
          "POST", "/api/dns/blocking", port: port, headers: ["X-FTL-SID: \(sid)"], body: "{\"blocking\":\(on)}") ?? ""
      _ = Self.request("DELETE", "/api/auth", port: port, headers: ["X-FTL-SID: \(sid)"])
      return reply.contains("\"blocking\":\"\(on ? "enabled" : "disabled")\"")
        ? .success(reply) : .failure(StartError(detail: "blocking not switched: \(reply)"))
    }.get()
  }

  /// The whole reply to one request to 127.0.0.1:`port` (HTTP/1.0), or nil when nothing answers.
  static func request(
    _ method: String, _ path: String, port: UInt16, headers: [String] = [], body: String? = nil
  ) -> String? {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var timeout = timeval(tv_sec: 1, tv_usec: 0)
    setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else { return nil }
    var head = ["\(method) \(path) HTTP/1.0", "Host: 127.0.0.1", "User-Agent: sanehosts-tests"] + headers
    if let body { head += ["Content-Type: application/json", "Content-Length: \(body.utf8.count)"] }
    let request = Array((head.joined(separator: "\r\n") + "\r\n\r\n" + (body ?? "")).utf8)
    guard write(descriptor, request, request.count) == request.count else { return nil }
    var reply: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = read(descriptor, &buffer, buffer.count)
      guard count > 0 else { break }
      reply += buffer.prefix(count)
    }
    return reply.isEmpty ? nil : String(decoding: reply, as: UTF8.self)
  }

  /// The daemon did not come up.
  public struct StartError: Error, CustomStringConvertible {
    /// What it printed.
    public var detail: String
    public var description: String { "the real Pi-hole FTL did not start within 60 s:\n\(detail)" }
  }
}
