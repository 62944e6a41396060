import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// How a running DNS server is told to load its drop-in again.
public enum ReloadMethod: Sendable, Hashable, Codable {
  /// `systemctl reload UNIT`.
  case systemd(unit: String)
  /// `systemctl restart UNIT`: for dnsmasq's `conf-file` drop-in, which a reload (SIGHUP) does not read again.
  case systemdRestart(unit: String)
  /// `unbound-control reload`.
  case unboundControl
  /// `rndc reload [ZONE]`: one zone, or every zone when nil.
  case rndc(zone: String?)
  /// `SIGHUP` to a process, which must be `program` (the target's server, by its executable or command
  /// name): dnsmasq then reads its hosts files again (not its configuration files).
  case signal(pid: Int32, program: String)
  /// `rec_control reload-lua-config` then `rec_control wipe-cache .$` (PowerDNS Recursor keeps answers in its
  /// packet cache across a reload); `socketDirectory` is the recursor's `socket-dir` (nil: its default).
  case recControl(socketDirectory: String?)
  /// Knot Resolver's control socket (`RUNDIR/control/PID`): the zone at `zone` is loaded again at once
  /// (kresd also watches the file, but a reload through the socket takes effect before it returns).
  case knotControl(socket: String, zone: String)
  /// Each method in order until one succeeds (a service's reload, then its control program); when all
  /// fail, each failure is named.
  case firstOf([ReloadMethod])

  /// The command it runs, for messages.
  public var command: String {
    switch self {
    case .systemd(let unit): "systemctl reload \(unit)"
    case .systemdRestart(let unit): "systemctl restart \(unit)"
    case .unboundControl: "unbound-control reload"
    case .rndc(let zone): zone.map { "rndc reload \($0)" } ?? "rndc reload"
    case .signal(let pid, _): "kill -HUP \(pid)"
    case .recControl(let directory):
      "rec_control\(directory.map { " --socket-dir=\($0)" } ?? "") reload-lua-config"
    case .knotControl(let socket, _): "kresd control socket \(socket)"
    case .firstOf(let methods): methods.map(\.command).joined(separator: ", else ")
    }
  }

  /// Reloads the server and says in one line what was done.
  public func perform(runner: any ProcessRunning) async throws -> String {
    let (tool, arguments, done): (String, [String], String)
    switch self {
    case .systemd(let unit):
      (tool, arguments, done) = ("systemctl", ["reload", unit], "reloaded \(unit)")
    case .systemdRestart(let unit):
      (tool, arguments, done) = ("systemctl", ["restart", unit], "restarted \(unit)")
    case .unboundControl:
      (tool, arguments, done) = ("unbound-control", ["reload"], "reloaded unbound")
    case .rndc(let zone):
      (tool, arguments, done) = ("rndc", ["reload"] + (zone.map { [$0] } ?? []), "reloaded \(zone ?? "every zone")")
    case .signal(let pid, let program):
      try Self.checkProcess(pid, is: program)
      try Self.hangUp(pid)
      return "sent SIGHUP to process \(pid) (\(program))"
    case .firstOf(let methods):
      var failures: [String] = []
      for method in methods {
        do {
          let done = try await method.perform(runner: runner)
          return failures.isEmpty ? done : "\(done) (first: \(failures.joined(separator: "; ")))"
        } catch {
          failures.append((error as? any LocalizedError)?.errorDescription ?? "\(error)")
        }
      }
      throw ReloadError.allFailed(failures)
    case .recControl(let directory):
      let prefix = directory.map { ["--socket-dir=\($0)"] } ?? []
      try await run("rec_control", prefix + ["reload-lua-config"], runner: runner)
      try await run("rec_control", prefix + ["wipe-cache", ".$"], runner: runner)
      return "reloaded PowerDNS Recursor's Lua configuration and wiped its cache with rec_control"
    case .knotControl(let socket, let zone):
      let command =
        "sanehosts_zone = policy.rpz(policy.DENY, \(ServerTarget.luaString(zone)), true) sanehosts_rpz.cb = \(ServerTarget.knotFilter) cache.clear() return 'ok'"
      let reply: String
      do {
        reply = try KnotControl(path: socket).send(command)
      } catch {
        throw ReloadError.failed(command: self.command, status: nil, output: error.localizedDescription)
      }
      guard reply.contains("ok") else { throw ReloadError.failed(command: self.command, status: nil, output: reply) }
      return "reloaded the zone through Knot Resolver's control socket \(socket)"
    }
    try await run(tool, arguments, runner: runner)
    return "\(done) with \(command)"
  }

  /// Runs one reload command; throws when it is missing or fails.
  private func run(_ tool: String, _ arguments: [String], runner: any ProcessRunning) async throws {
    let output: ProcessOutput
    let command = ([tool] + arguments).joined(separator: " ")
    do {
      output = try await runner.run(tool, arguments)
    } catch ProcessRunner.Error.notFound(let name) {
      throw ReloadError.toolMissing(tool: name, command: command)
    } catch {
      throw ReloadError.failed(command: command, status: nil, output: error.localizedDescription)
    }
    guard output.status == 0 else {
      throw ReloadError.failed(command: command, status: output.status, output: output.combined)
    }
  }

  /// Checks, before anything is written, that the method can be used: a process to signal is the
  /// target's server.
  public func precheck() throws(ReloadError) {
    if case .signal(let pid, let program) = self { try Self.checkProcess(pid, is: program) }
  }

  /// The names a process goes by: its executable's file name and its command name (`/proc/PID/comm`).
  static func names(ofProcess pid: Int32) -> [String] {
    var names: [String] = []
    if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe") {
      // A program replaced since it started reads as "PATH (deleted)".
      names.append((exe.replacingOccurrences(of: " (deleted)", with: "") as NSString).lastPathComponent)
    }
    if let comm = try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8) {
      names.append(comm.trimmingCharacters(in: .whitespacesAndNewlines))
    }
    return names
  }

  /// Refuses to signal a process that is not `program`.
  static func checkProcess(_ pid: Int32, is program: String) throws(ReloadError) {
    guard pid > 0 else { throw .invalidProcess(pid: pid) }
    let names = Self.names(ofProcess: pid)
    guard !names.isEmpty else { throw .noSuchProcess(pid: pid) }
    // The kernel keeps 15 bytes of a command name.
    guard names.contains(where: { $0 == program || (program.count > 15 && $0 == String(program.prefix(15))) })
    else { throw .notTheServer(pid: pid, program: program, found: names.last ?? names[0]) }
  }

  private static func hangUp(_ pid: Int32) throws(ReloadError) {
    // 0 and negative ids name process groups (-1: every process we may signal): never send those.
    guard pid > 0 else { throw .invalidProcess(pid: pid) }
    guard kill(pid, SIGHUP) == 0 else {
      if errno == ESRCH { throw .noSuchProcess(pid: pid) }
      throw .failed(command: "kill -HUP \(pid)", status: nil, output: String(cString: strerror(errno)))
    }
  }
}

/// Why a server could not be reloaded.
public enum ReloadError: Error, Sendable, Hashable {
  /// The command ran and failed (`status` is nil when it could not be run at all).
  case failed(command: String, status: Int32?, output: String)
  /// The program the method needs is not installed.
  case toolMissing(tool: String, command: String)
  /// No process has this id.
  case noSuchProcess(pid: Int32)
  /// Not a process id (zero or negative ids name groups of processes).
  case invalidProcess(pid: Int32)
  /// The process is not the target's server (`found` is what it runs).
  case notTheServer(pid: Int32, program: String, found: String)
  /// Every method tried failed; each failure in the order tried.
  case allFailed([String])
}

extension ReloadError: LocalizedError {
  /// What went wrong, naming the value concerned.
  public var errorDescription: String? {
    switch self {
    case .failed(let command, let status, let output):
      "“\(command)” failed\(status.map { " with status \($0)" } ?? "")\(output.isEmpty ? "." : ": \(output)")"
    case .toolMissing(let tool, let command):
      "Cannot run “\(command)”: \(tool) is not installed."
    case .noSuchProcess(let pid):
      "There is no process \(pid) to send SIGHUP to."
    case .invalidProcess(let pid):
      "\(pid) is not a process id."
    case .notTheServer(let pid, let program, let found):
      "Process \(pid) is \(found), not \(program): --reload-pid sends SIGHUP only to the target's own server."
    case .allFailed(let failures):
      "No way to reload worked: "
        + failures.enumerated().map { "(\($0.offset + 1)) \($0.element)" }.joined(separator: " ")
    }
  }

  /// What to do about it.
  public var recoverySuggestion: String? {
    switch self {
    case .failed(let command, _, _):
      "Check the service's log (journalctl -u SERVICE, or the server's own log file) for why “\(command)” failed, then reload it yourself."
    case .toolMissing(let tool, _):
      "Install the package that provides \(tool), or reload the server another way."
    case .noSuchProcess:
      "Check that the server is running (its pid file may be stale) and pass its current process id."
    case .invalidProcess:
      "Pass the server's process id, a positive number."
    case .notTheServer(_, let program, _):
      "Pass \(program)'s own process id (pidof \(program)), or use --reload alone for the usual reload."
    case .allFailed:
      "Reload the server yourself (or give --reload-unit, --reload-pid or --reload-socket), then apply with --verify."
    }
  }
}
