import Files
import Foundation

/// A systemd timer that runs `sanehosts update` and then `sanehosts apply` periodically.
///
/// The service has two `ExecStart=` lines: a oneshot service runs them in order and stops at the first
/// that fails, so a failed update never applies anything. It runs at low CPU and I/O priority.
public struct Schedule: Sendable, Hashable {
  /// Whose systemd manager runs the timer.
  public enum Scope: String, Sendable, Hashable, CaseIterable, Codable {
    /// The user's own manager (`systemctl --user`); units in `~/.config/systemd/user`.
    case user
    /// The system manager; units in `/etc/systemd/system`.
    case system
  }

  /// The service's file name.
  public static let serviceName = "sanehosts-update.service"
  /// The timer's file name.
  public static let timerName = "sanehosts-update.timer"

  /// Whose manager runs it.
  public var scope: Scope
  /// The absolute path of the `sanehosts` executable.
  public var executable: String
  /// The profile both commands update and apply (nil: the active one at run time).
  public var profile: String?
  /// Arguments passed to `apply` after `--quiet` and the profile (hosts file, target, output).
  public var applyArguments: [String]
  /// When it runs, in systemd's calendar syntax (`daily`, `Mon *-*-* 04:00`).
  public var onCalendar: String
  /// The random delay added to each run (a systemd time span), so machines do not all fetch at once.
  public var randomizedDelay: String
  /// The data directory passed to both commands as `--data-dir`; nil uses the default.
  public var dataDirectory: String?

  /// Creates a schedule.
  public init(
    scope: Scope, executable: String, profile: String? = nil, applyArguments: [String] = [],
    onCalendar: String = "daily", randomizedDelay: String = "1h", dataDirectory: String? = nil
  ) {
    self.scope = scope
    self.profile = profile
    self.executable = executable
    self.applyArguments = applyArguments
    self.onCalendar = onCalendar
    self.randomizedDelay = randomizedDelay
    self.dataDirectory = dataDirectory
  }

  /// The service unit's text.
  public func serviceUnit() -> String {
    // The same profile for both: the update refreshes the copies the apply then writes.
    let options = (dataDirectory.map { ["--data-dir", $0] } ?? []) + (profile.map { ["--profile", $0] } ?? [])
    let update = [executable, "update", "--quiet"] + options
    let apply = [executable, "apply", "--quiet"] + options + applyArguments
    // A user manager has no network-online.target of its own to wait for.
    let network =
      scope == .system ? "Wants=network-online.target\nAfter=network-online.target\n" : ""
    return """
      [Unit]
      Description=Update the SaneHosts blocklists and apply them
      \(network)
      [Service]
      Type=oneshot
      ExecStart=\(Self.commandLine(update))
      ExecStart=\(Self.commandLine(apply))
      Nice=10
      IOSchedulingClass=idle

      """
  }

  /// The timer unit's text.
  public func timerUnit() -> String {
    """
    [Unit]
    Description=Run \(Self.serviceName) on schedule (\(Self.escapeSpecifiers(onCalendar)))

    [Timer]
    OnCalendar=\(onCalendar)
    RandomizedDelaySec=\(randomizedDelay)
    Persistent=true

    [Install]
    WantedBy=timers.target

    """
  }

  /// Where the units go by default: `$XDG_CONFIG_HOME/systemd/user` (else `~/.config/systemd/user`) for
  /// the user, `/etc/systemd/system` for the system.
  public static func unitDirectory(
    for scope: Scope, environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> String {
    switch scope {
    case .system:
      return "/etc/systemd/system"
    case .user:
      if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") { return "\(config)/systemd/user" }
      let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
      return "\(home)/.config/systemd/user"
    }
  }

  /// The default unit directory for this schedule's scope.
  public var unitDirectory: String { Self.unitDirectory(for: scope) }

  /// Refuses values that would make broken units: a relative executable, line breaks in any value.
  public func validate() throws(ScheduleError) {
    guard executable.hasPrefix("/") else { throw .relativeExecutable(executable) }
    for (name, value) in [("calendar", onCalendar), ("randomized delay", randomizedDelay)] {
      if value.trimmingCharacters(in: .whitespaces).isEmpty || value.unicodeScalars.contains(where: Self.isControl) {
        throw .invalidValue(name: name, value: value)
      }
    }
  }

  /// Asks systemd whether it takes the calendar and the delay (`systemd-analyze calendar` and
  /// `timespan`), as the timer would read them; without systemd-analyze, nothing more is checked.
  public func checkWithSystemd(runner: any ProcessRunning) async throws(ScheduleError) {
    try validate()
    for (name, verb, value) in [
      ("calendar", "calendar", onCalendar), ("randomized delay", "timespan", randomizedDelay),
    ] {
      let output: ProcessOutput
      do {
        output = try await runner.run("systemd-analyze", [verb, value])
      } catch {
        return
      }
      guard output.status == 0 else {
        throw .rejectedBySystemd(name: name, value: value, output: output.combined)
      }
    }
  }

  /// Writes both units atomically into `directory` (default: `unitDirectory`); when `enable`, reloads
  /// systemd and enables and starts the timer. Returns the paths written.
  @discardableResult
  public func install(into directory: String? = nil, runner: any ProcessRunning, enable: Bool = true)
    async throws(ScheduleError) -> [String]
  {
    try validate()
    let directory = directory ?? unitDirectory
    do {
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    } catch {
      throw .unwritable(path: directory, detail: error.localizedDescription)
    }
    var written: [String] = []
    for (name, text) in [(Self.serviceName, serviceUnit()), (Self.timerName, timerUnit())] {
      let path = "\(directory)/\(name)"
      do {
        try StagedFile.replace(path, with: Array(text.utf8), mode: 0o644)
      } catch {
        throw .unwritable(path: error.path, detail: error.detail)
      }
      written.append(path)
    }
    if enable {
      try await systemctl(["daemon-reload"], runner: runner)
      try await systemctl(["enable", "--now", Self.timerName], runner: runner)
    }
    return written
  }

  /// When `disable`, stops and disables the timer; then deletes both units (and reloads systemd when
  /// `disable`). Returns the paths deleted.
  @discardableResult
  public func remove(from directory: String? = nil, runner: any ProcessRunning, disable: Bool = true)
    async throws(ScheduleError) -> [String]
  {
    let directory = directory ?? unitDirectory
    let paths = [Self.timerName, Self.serviceName].map { "\(directory)/\($0)" }
    let manager = FileManager.default
    if disable && manager.fileExists(atPath: paths[0]) {
      try await systemctl(["disable", "--now", Self.timerName], runner: runner)
    }
    var removed: [String] = []
    for path in paths where manager.fileExists(atPath: path) {
      do {
        try manager.removeItem(atPath: path)
      } catch {
        throw .unwritable(path: path, detail: error.localizedDescription)
      }
      removed.append(path)
    }
    if disable && !removed.isEmpty { try await systemctl(["daemon-reload"], runner: runner) }
    return removed
  }

  /// Words joined into an `ExecStart=` command line: a word with spaces, quotes, backslashes or
  /// semicolons is double-quoted with C escapes, and `%` and `$` are doubled so systemd takes them literally.
  public static func commandLine(_ words: [String]) -> String {
    words.map(quote).joined(separator: " ")
  }

  /// One word for `ExecStart=`.
  static func quote(_ word: String) -> String {
    let literal = escapeSpecifiers(word).replacingOccurrences(of: "$", with: "$$")
    let needsQuotes =
      literal.isEmpty
      || literal.unicodeScalars.contains { " \t\"'\\;".unicodeScalars.contains($0) || isControl($0) }
    guard needsQuotes else { return literal }
    var quoted = "\""
    for scalar in literal.unicodeScalars {
      switch scalar {
      case "\\": quoted += "\\\\"
      case "\"": quoted += "\\\""
      case "\n": quoted += "\\n"
      case "\t": quoted += "\\t"
      case "\r": quoted += "\\r"
      case _ where isControl(scalar): quoted += String(format: "\\x%02x", scalar.value)
      default: quoted.unicodeScalars.append(scalar)
      }
    }
    return quoted + "\""
  }

  private static func escapeSpecifiers(_ text: String) -> String {
    text.replacingOccurrences(of: "%", with: "%%")
  }

  private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || scalar.value == 0x7F
  }

  private func systemctl(_ arguments: [String], runner: any ProcessRunning) async throws(ScheduleError) {
    let full = (scope == .user ? ["--user"] : []) + arguments
    let command = (["systemctl"] + full).joined(separator: " ")
    let output: ProcessOutput
    do {
      output = try await runner.run("systemctl", full)
    } catch {
      throw .systemctlFailed(command: command, output: error.localizedDescription)
    }
    guard output.status == 0 else { throw .systemctlFailed(command: command, output: output.combined) }
  }
}

/// Why a schedule could not be installed or removed.
public enum ScheduleError: Error, Sendable, Hashable {
  /// The executable's path is not absolute (systemd needs one).
  case relativeExecutable(String)
  /// A calendar or delay value that is empty or holds a line break.
  case invalidValue(name: String, value: String)
  /// A unit file or its directory cannot be written or deleted.
  case unwritable(path: String, detail: String)
  /// A `systemctl` command failed.
  case systemctlFailed(command: String, output: String)
  /// `systemd-analyze` does not take the calendar or the delay.
  case rejectedBySystemd(name: String, value: String, output: String)
}

extension ScheduleError: LocalizedError {
  /// What went wrong, naming the value concerned.
  public var errorDescription: String? {
    switch self {
    case .relativeExecutable(let path):
      "The executable “\(path)” is not an absolute path."
    case .invalidValue(let name, let value):
      "The \(name) “\(value)” is empty or holds a line break."
    case .unwritable(let path, let detail):
      "Cannot write \(path): \(detail)."
    case .systemctlFailed(let command, let output):
      "“\(command)” failed\(output.isEmpty ? "." : ": \(output)")"
    case .rejectedBySystemd(let name, let value, let output):
      "systemd does not take the \(name) “\(value)”\(output.isEmpty ? "." : ": \(output)")"
    }
  }

  /// What to do about it.
  public var recoverySuggestion: String? {
    switch self {
    case .relativeExecutable:
      "Pass the full path of sanehosts (for example /usr/local/bin/sanehosts)."
    case .invalidValue(let name, _):
      "Give the \(name) on one line, in systemd's syntax (see man systemd.time)."
    case .unwritable:
      "Check the directory's permissions; the system scope needs root (sudo)."
    case .systemctlFailed:
      "Check that systemd is running for this scope (a --user manager needs a login session), then run the command yourself."
    case .rejectedBySystemd(let name, _, _):
      name == "calendar"
        ? "Give a calendar systemd reads (daily, weekly, \"*-*-* 04:00\"; see man systemd.time and systemd-analyze calendar)."
        : "Give a time span systemd reads (30min, 1h, 2h 30min; see man systemd.time)."
    }
  }
}
