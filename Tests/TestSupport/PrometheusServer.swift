import Apply
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Debian's real Prometheus (package prometheus), started by a test on 127.0.0.1 and a free port, scraping
/// one target every second; its data and log in a folder of the test's.
public final class PrometheusServer: Sendable {
  /// The port its HTTP API answers on.
  public let port: UInt16
  /// Where its output goes.
  public let logFile: URL
  /// The running program.
  let child: ChildProcess

  /// What it has logged so far.
  public func log() -> String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }

  /// Whether it has exited.
  public var hasExited: Bool { child.hasExited }

  /// The scrape configuration: `target` (`127.0.0.1:8080`) at `path` every second, with a bearer token
  /// when given.
  public static func configuration(target: String, path: String = "/metrics", token: String? = nil) -> String {
    var text = """
      global:
        scrape_interval: 1s
        scrape_timeout: 1s
      scrape_configs:
        - job_name: sanehosts
          metrics_path: \(path)
          static_configs:
            - targets: ["\(target)"]

      """
    if let token { text += "    authorization:\n      credentials: \(token)\n" }
    return text
  }

  /// Starts Prometheus scraping `target`, runs `body` with it, and stops it however `body` ends.
  public static func with<R>(
    scraping target: String, token: String? = nil, directory: URL, _ body: (PrometheusServer) async throws -> R
  ) async throws -> R {
    let executable = try RequiredTool.path("prometheus", package: "prometheus")
    let folder = directory.appending(path: "prometheus")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let configuration = folder.appending(path: "prometheus.yml")
    try Data(Self.configuration(target: target, token: token).utf8).write(to: configuration)
    let port = try FreePort.forDNS()
    let logFile = folder.appending(path: "prometheus.log")
    let log = open(logFile.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard log >= 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: logFile.path]) }
    defer { close(log) }
    let child = try ChildProcess(
      executable,
      [
        "--config.file=\(configuration.path)", "--storage.tsdb.path=\(folder.appending(path: "data").path)",
        "--web.listen-address=127.0.0.1:\(port)",
      ], standardOutput: log, standardError: log)
    let server = PrometheusServer(port: port, logFile: logFile, child: child)
    do {
      let result = try await body(server)
      await server.stop()
      return result
    } catch {
      await server.stop()
      throw error
    }
  }

  init(port: UInt16, logFile: URL, child: ChildProcess) {
    self.port = port
    self.logFile = logFile
    self.child = child
  }

  /// SIGTERM, then SIGKILL after 5 s; waits for it to end.
  func stop() async { await child.stop() }
}
