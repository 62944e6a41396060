import Foundation

/// Flushes the DNS caches that are running, so a changed hosts file takes effect at once.
///
/// Looks for systemd-resolved (`resolvectl flush-caches`), nscd (`nscd --invalidate=hosts`) and local
/// dnsmasq processes (SIGHUP, which clears dnsmasq's cache and rereads its hosts files). A cache that is
/// not running is not an error; a flush that fails is reported, never thrown: the apply itself succeeded.
public struct CacheFlusher: Sendable {
  /// A process found running.
  public struct RunningProcess: Sendable, Hashable {
    /// Its id.
    public var pid: Int32
    /// Its command name (`/proc/PID/comm`, at most 15 characters).
    public var name: String

    /// Creates a process description.
    public init(pid: Int32, name: String) {
      self.pid = pid
      self.name = name
    }
  }

  /// What a flush did.
  public struct Report: Sendable, Hashable, Codable {
    /// Caches flushed, each with how (“nscd (nscd --invalidate=hosts)”).
    public var flushed: [String] = []
    /// Caches found whose flush failed, with the reason.
    public var failed: [String] = []

    /// Creates a report.
    public init(flushed: [String] = [], failed: [String] = []) {
      self.flushed = flushed
      self.failed = failed
    }

    /// One line for people: what was flushed, or that no cache runs.
    public var summary: String {
      var parts: [String] = []
      if !flushed.isEmpty { parts.append("flushed \(flushed.joined(separator: ", "))") }
      if !failed.isEmpty { parts.append("could not flush \(failed.joined(separator: "; "))") }
      return parts.isEmpty ? "no DNS cache is running (nothing to flush)" : parts.joined(separator: "; ")
    }
  }

  private let runner: any ProcessRunning
  private let processes: @Sendable () -> [RunningProcess]
  private let signal: @Sendable (Int32) -> Bool

  /// Creates a flusher; tests pass fakes for the runner, the process list and the signal.
  public init(
    runner: any ProcessRunning = ProcessRunner(),
    processes: @escaping @Sendable () -> [RunningProcess] = { CacheFlusher.runningProcesses() },
    signal: @escaping @Sendable (Int32) -> Bool = { kill($0, SIGHUP) == 0 }
  ) {
    self.runner = runner
    self.processes = processes
    self.signal = signal
  }

  /// Flushes every cache found running.
  public func flush() async -> Report {
    var report = Report()
    let running = processes()
    if running.contains(where: { $0.name == "systemd-resolve" || $0.name == "systemd-resolved" }) {
      await run("systemd-resolved", "resolvectl", ["flush-caches"], into: &report)
    }
    if running.contains(where: { $0.name == "nscd" }) {
      await run("nscd", "nscd", ["--invalidate=hosts"], into: &report)
    }
    for process in running where process.name == "dnsmasq" {
      if signal(process.pid) {
        report.flushed.append("dnsmasq (pid \(process.pid), SIGHUP)")
      } else {
        report.failed.append("dnsmasq (pid \(process.pid)): \(String(cString: strerror(errno)))")
      }
    }
    return report
  }

  private func run(_ cache: String, _ tool: String, _ arguments: [String], into report: inout Report) async {
    let command = ([tool] + arguments).joined(separator: " ")
    do {
      let output = try await runner.run(tool, arguments)
      if output.status == 0 {
        report.flushed.append("\(cache) (\(command))")
      } else {
        report.failed.append("\(cache) (\(command) exited \(output.status): \(output.combined))")
      }
    } catch {
      report.failed.append("\(cache) (\(command): \(error.localizedDescription))")
    }
  }

  /// The processes listed in `/proc` (or another directory laid out like it).
  public static func runningProcesses(procRoot: String = "/proc") -> [RunningProcess] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: procRoot)) ?? []
    return entries.compactMap { entry in
      guard let pid = Int32(entry),
        let name = try? String(contentsOfFile: "\(procRoot)/\(entry)/comm", encoding: .utf8)
      else { return nil }
      return RunningProcess(pid: pid, name: name.trimmingCharacters(in: .whitespacesAndNewlines))
    }
  }
}
