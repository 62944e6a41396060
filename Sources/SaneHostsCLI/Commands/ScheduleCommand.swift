import Apply
import ArgumentParser
import Foundation
import Store

/// `sanehosts schedule`: a systemd timer that updates and applies periodically.
struct ScheduleCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "schedule",
    abstract: "Install or remove a systemd timer that runs `update` then `apply` periodically.",
    subcommands: [Install.self, Remove.self, Show.self])

  /// Which systemd manager, and where its units go.
  struct ScopeOptions: ParsableArguments {
    @Flag(help: "The user's own systemd manager (units in ~/.config/systemd/user; default when not root).")
    var user = false
    @Flag(help: "The system manager (units in /etc/systemd/system; default for root).") var system = false
    @Option(help: ArgumentHelp("Write the units here instead of the scope's usual directory.", valueName: "path"))
    var unitDir: String?

    func validate() throws {
      if user && system { throw ValidationError("Give --user or --system, not both.") }
    }

    var scope: Schedule.Scope { user ? .user : system ? .system : (geteuid() == 0 ? .system : .user) }
  }

  /// The schedule the options describe.
  struct ScheduleOptions: ParsableArguments {
    @OptionGroup var scope: ScopeOptions
    @Option(help: "When to run, in systemd's calendar syntax (daily, weekly, \"*-*-* 04:00\").")
    var onCalendar = "daily"
    @Option(help: "A random delay added to each run (a systemd time span), so not every machine fetches at once.")
    var randomizedDelay = "1h"
    @OptionGroup var profile: ProfileOption
    @Option(help: ArgumentHelp("The hosts file to apply to.", valueName: "path")) var hostsFile: String?
    @Option(help: "Apply to a DNS server instead: \(ServerTarget.allCases.map(\.rawValue).joined(separator: ", ")).")
    var target: Target?
    @Option(help: ArgumentHelp("The drop-in file for --target.", valueName: "path")) var output: String?
    @Flag(help: "Reload the DNS server (with --target) or flush DNS caches (hosts file) after applying.")
    var reload = false
    @Option(
      name: .customLong("data-dir"),
      help: ArgumentHelp(
        "The data directory both commands use (default: the one in use now: $SANEHOSTS_HOME, else the default).",
        valueName: "path"))
    var dataDirectory: String?

    func validate() throws {
      if output != nil && (target ?? .hosts) == .hosts {
        throw ValidationError("--output is the drop-in of a DNS server: add --target \(ApplyCommand.serverNames).")
      }
      if hostsFile != nil, let target, target != .hosts {
        throw ValidationError("--hosts-file is for the hosts file; --target \(target.name) writes --output.")
      }
    }

    /// A path as the unit will read it: absolute (a unit runs in /, not in this shell's folder).
    static func absolute(_ path: String) -> String {
      let expanded = (path as NSString).expandingTildeInPath
      return URL(fileURLWithPath: expanded).standardizedFileURL.path
    }

    func schedule() throws -> Schedule {
      var arguments: [String] = []
      if let hostsFile { arguments += ["--hosts-file", Self.absolute(hostsFile)] }
      if let target, target != .hosts {
        arguments += ["--target", target.name]
        if let output { arguments += ["--output", Self.absolute(output)] }
        if reload { arguments.append("--reload") }
      } else if reload {
        arguments.append("--flush")
      }
      return Schedule(
        scope: scope.scope, executable: Self.executable(), profile: profile.name, applyArguments: arguments,
        onCalendar: onCalendar, randomizedDelay: randomizedDelay,
        // Always the store in use (--data-dir, else $SANEHOSTS_HOME, else the default): a unit does not
        // see the shell's environment, so without it the timer would update another store.
        dataDirectory: dataDirectory.map(Self.absolute) ?? DataDirectory.resolve().url.path)
    }

    /// The schedule, once everything it names is checked as the timer would meet it: the profile in the
    /// store, the calendar and delay by systemd, the hosts file's or the drop-in's folder.
    func checkedSchedule() async throws -> Schedule {
      let schedule = try schedule()
      try await schedule.checkWithSystemd(runner: ProcessRunner())
      if let profile = profile.name {
        let data = DataDirectory.resolve(explicit: schedule.dataDirectory)
        let store = try StoreOptions.open(data)
        _ = try store.profile(profile)
      }
      for path in [hostsFile, output].compactMap({ $0 }).map(Self.absolute) {
        let folder = (path as NSString).deletingLastPathComponent
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
          throw CommandFailure(
            "The folder of \(path) does not exist: the timer's apply would fail.",
            suggestion: "Create \(folder) (or give another path), then install the schedule again.")
        }
      }
      return schedule
    }

    /// The absolute path of the running `sanehosts`.
    static func executable() -> String {
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        ?? URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path
    }
  }

  struct Install: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "install",
      abstract: "Write the service and timer units, then enable and start the timer.",
      discussion: """
        The service runs `sanehosts update --quiet` of the profile, then (only if the update succeeded) \
        `sanehosts apply --quiet` of the same profile with the options given here, at low CPU and I/O \
        priority. Before writing, the profile is looked up in the store, the calendar and delay are checked \
        by systemd-analyze, and the folders of --hosts-file and --output must exist; relative paths are made \
        absolute. The timer runs it daily by \
        default with up to an hour's random delay, and catches up after the machine was off (Persistent=true). \
        Writing to /etc/hosts needs the system scope (run as root).
        """)
    @OptionGroup var options: ScheduleOptions
    @Flag(help: "Only write the units; do not run systemctl.") var noEnable = false
    @Flag(help: "Accept a sanehosts inside a build folder (.build/…), which a rebuild or clean would break.")
    var allowBuildBinary = false

    func validate() throws {
      let executable = ScheduleOptions.executable()
      if !allowBuildBinary && Self.isBuildFolder(executable) {
        throw ValidationError(
          "\(executable) is inside a build folder: the next `swift build` or clean would break the timer. Install sanehosts first (./scripts/install.sh, then run the installed one), or pass --allow-build-binary."
        )
      }
    }

    /// Whether a path lies in a SwiftPM build folder.
    static func isBuildFolder(_ path: String) -> Bool {
      path.split(separator: "/").contains { $0 == ".build" || $0.hasPrefix(".build-") || $0.hasPrefix(".build_") }
    }

    func run() async throws {
      let schedule = try await options.checkedSchedule()
      if schedule.scope == .user && options.target == nil && (options.hostsFile ?? "/etc/hosts") == "/etc/hosts" {
        Terminal.writeError(
          "warning: a user timer cannot write /etc/hosts; use --system (as root), or --hosts-file, or --target.\n")
      }
      let written = try await schedule.install(
        into: options.scope.unitDir, runner: ProcessRunner(), enable: !noEnable)
      Terminal.writeError("Wrote \(written.joined(separator: " and ")).\n")
      Terminal.writeError(
        noEnable
          ? "Enable it with: systemctl\(schedule.scope == .user ? " --user" : "") enable --now \(Schedule.timerName)\n"
          : "Enabled \(Schedule.timerName) (\(options.onCalendar), random delay up to \(options.randomizedDelay)).\n")
    }
  }

  struct Remove: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "remove", abstract: "Stop and disable the timer, and delete both units.")
    @OptionGroup var scope: ScopeOptions
    @Flag(help: "Only delete the units; do not run systemctl.") var noDisable = false

    func run() async throws {
      let schedule = Schedule(scope: scope.scope, executable: ScheduleOptions.executable())
      let removed = try await schedule.remove(from: scope.unitDir, runner: ProcessRunner(), disable: !noDisable)
      Terminal.writeError(
        removed.isEmpty
          ? "No SaneHosts timer is installed there.\n" : "Removed \(removed.joined(separator: " and ")).\n")
    }
  }

  struct Show: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "show",
      abstract: "Print the units `install` would write (checked as `install` checks them), write nothing.")
    @OptionGroup var options: ScheduleOptions

    func run() async throws {
      let schedule = try await options.checkedSchedule()
      let directory = options.scope.unitDir ?? schedule.unitDirectory
      Terminal.writeOutput(
        "# \(directory)/\(Schedule.serviceName)\n\(schedule.serviceUnit())\n# \(directory)/\(Schedule.timerName)\n\(schedule.timerUnit())"
      )
    }
  }
}
