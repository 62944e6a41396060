import Apply
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A DNS server (dnsmasq, unbound) started by a test on 127.0.0.1, its output kept in a log file.
///
/// Use `DNSServerProcess.with(...)`: it waits until the server answers and always stops it, even when the
/// body throws or an expectation fails. It is a `ChildProcess`, so SIGTERM and SIGHUP reach it.
public final class DNSServerProcess: Sendable {
  /// The address it serves on (127.0.0.1, or a lab host's).
  public let address: String
  /// The port it serves on.
  public let port: UInt16
  /// Where its standard output and error go.
  public let logFile: URL
  /// The running program.
  public let child: ChildProcess

  /// The server's process id.
  public var pid: Int32 { child.pid }

  /// Starts `executable` with `arguments`; the arguments must make it serve on 127.0.0.1:`port` in the
  /// foreground (`address`:`port` for a server in a lab host).
  public init(_ executable: String, _ arguments: [String], address: String = "127.0.0.1", port: UInt16, logFile: URL)
    throws
  {
    let log = open(logFile.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard log >= 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: logFile.path]) }
    defer { close(log) }
    child = try ChildProcess(executable, arguments, standardOutput: log, standardError: log)
    self.address = address
    self.port = port
    self.logFile = logFile
  }

  /// What the server has logged so far.
  public func log() -> String {
    (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
  }

  /// Polls the server until it answers a query, for at most `seconds`; throws with its log when it exits
  /// or never answers. The default is generous: on 2 busy cores (the whole suite in parallel) kresd once
  /// took over 10 s to load; a healthy start returns at its first answer.
  public func waitUntilAnswering(within seconds: Double = 30) async throws {
    let dig = try Dig(server: address, port: port)
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while ContinuousClock.now < deadline {
      if child.hasExited { throw StartFailure(detail: "exited with status \(await child.status())", log: log()) }
      if await dig.answers() { return }
      try await Task.sleep(for: .milliseconds(50))
    }
    throw StartFailure(detail: "did not answer on \(address):\(port) within \(seconds) s", log: log())
  }

  /// Stops the server: SIGTERM, then SIGKILL if it is still running after 5 s; waits for it to end.
  public func stop() async { await child.stop() }

  /// Starts `executable` with `arguments` in `host` of `lab`, serving on the host's address, port 53 (each
  /// host has its own ports); waits until it answers, runs `body` with it, and stops it however `body` ends.
  public static func with<R>(
    _ executable: String, _ arguments: [String], in host: NetworkLab.Host, of lab: NetworkLab, logFile: URL,
    _ body: (DNSServerProcess) async throws -> R
  ) async throws -> R {
    let (program, full) = lab.command(in: host, executable, arguments)
    let server = try DNSServerProcess(program, full, address: host.address, port: 53, logFile: logFile)
    do {
      try await server.waitUntilAnswering()
      let result = try await body(server)
      await server.stop()
      return result
    } catch {
      await server.stop()
      throw error
    }
  }

  /// Starts a server on a free port, waits until it answers, runs `body` with it, and stops it however
  /// `body` ends. `arguments` and `logFile` get the port; a server that finds its port taken after all
  /// is started again on another, up to five times.
  public static func with<R>(
    _ executable: String, arguments: (UInt16) throws -> [String], logFile: (UInt16) -> URL,
    _ body: (DNSServerProcess) async throws -> R
  ) async throws -> R {
    var attempt = 0
    while true {
      attempt += 1
      let port = try FreePort.forDNS()
      let server = try DNSServerProcess(executable, try arguments(port), port: port, logFile: logFile(port))
      do {
        try await server.waitUntilAnswering()
      } catch let failure as StartFailure where failure.log.contains("Address already in use") && attempt < 5 {
        await server.stop()
        continue
      } catch {
        await server.stop()
        throw error
      }
      do {
        let result = try await body(server)
        await server.stop()
        return result
      } catch {
        await server.stop()
        throw error
      }
    }
  }

  /// The server exited or never answered.
  public struct StartFailure: Error, CustomStringConvertible {
    /// What happened.
    public var detail: String
    /// The server's log.
    public var log: String
    /// The message shown when a test fails with it.
    public var description: String { "The DNS server \(detail). Its log:\n\(log)" }
  }
}
