import Apply
import Foundation
import TestSupport
import Testing

@Suite("Scheduled updates with systemd timers")
struct ScheduleTests {
  @Test("The system service: two ExecStart lines in order, low priority, waiting for the network")
  func systemService() {
    let schedule = Schedule(
      scope: .system, executable: "/usr/local/bin/sanehosts",
      applyArguments: ["--profile", "home", "--target", "dnsmasq"], dataDirectory: "/var/lib/sanehosts")
    #expect(
      schedule.serviceUnit() == """
        [Unit]
        Description=Update the SaneHosts blocklists and apply them
        Wants=network-online.target
        After=network-online.target

        [Service]
        Type=oneshot
        ExecStart=/usr/local/bin/sanehosts update --quiet --data-dir /var/lib/sanehosts
        ExecStart=/usr/local/bin/sanehosts apply --quiet --data-dir /var/lib/sanehosts --profile home --target dnsmasq
        Nice=10
        IOSchedulingClass=idle

        """)
  }

  @Test("The user service has no network target (a user manager has none) and no data directory by default")
  func userService() {
    let schedule = Schedule(scope: .user, executable: "/home/me/bin/sanehosts")
    #expect(
      schedule.serviceUnit() == """
        [Unit]
        Description=Update the SaneHosts blocklists and apply them

        [Service]
        Type=oneshot
        ExecStart=/home/me/bin/sanehosts update --quiet
        ExecStart=/home/me/bin/sanehosts apply --quiet
        Nice=10
        IOSchedulingClass=idle

        """)
  }

  @Test("The timer: calendar, random delay, catching up missed runs, enabled with timers.target")
  func timer() {
    let schedule = Schedule(scope: .user, executable: "/x", onCalendar: "Mon *-*-* 04:00", randomizedDelay: "30m")
    #expect(
      schedule.timerUnit() == """
        [Unit]
        Description=Run sanehosts-update.service on schedule (Mon *-*-* 04:00)

        [Timer]
        OnCalendar=Mon *-*-* 04:00
        RandomizedDelaySec=30m
        Persistent=true

        [Install]
        WantedBy=timers.target

        """)
    #expect(
      Schedule(scope: .system, executable: "/x").timerUnit().contains("OnCalendar=daily\nRandomizedDelaySec=1h\n"))
  }

  @Test("Words are quoted for ExecStart: spaces, quotes, backslashes, semicolons, % and $")
  func quoting() {
    #expect(Schedule.commandLine(["/bin/x", "plain", "--opt=value"]) == "/bin/x plain --opt=value")
    #expect(Schedule.commandLine(["/opt/my tools/sanehosts"]) == #""/opt/my tools/sanehosts""#)
    #expect(Schedule.commandLine(["a b", ""]) == #""a b" """#)
    #expect(Schedule.commandLine([#"say "hi""#]) == #""say \"hi\"""#)
    #expect(Schedule.commandLine([#"C:\dir"#]) == #""C:\\dir""#)
    #expect(Schedule.commandLine([";"]) == #"";""#)
    #expect(Schedule.commandLine(["it's"]) == #""it's""#)
    #expect(Schedule.commandLine(["100%", "$HOME"]) == "100%% $$HOME")
    #expect(Schedule.commandLine(["two\nlines\t"]) == #""two\nlines\t""#)
    #expect(Schedule.commandLine(["bell\u{7}"]) == #""bell\x07""#)
  }

  @Test("Unit directories: XDG_CONFIG_HOME, else ~/.config, for the user; /etc/systemd/system for the system")
  func directories() {
    #expect(Schedule.unitDirectory(for: .system, environment: [:]) == "/etc/systemd/system")
    #expect(
      Schedule.unitDirectory(for: .user, environment: ["XDG_CONFIG_HOME": "/c", "HOME": "/h"]) == "/c/systemd/user")
    #expect(Schedule.unitDirectory(for: .user, environment: ["HOME": "/h"]) == "/h/.config/systemd/user")
    // A relative XDG_CONFIG_HOME is invalid by the spec and ignored.
    #expect(
      Schedule.unitDirectory(for: .user, environment: ["XDG_CONFIG_HOME": "rel", "HOME": "/h"])
        == "/h/.config/systemd/user")
  }

  @Test("Values that would break the units are refused, naming the value")
  func validation() {
    #expect(throws: ScheduleError.relativeExecutable("sanehosts")) {
      try Schedule(scope: .user, executable: "sanehosts").validate()
    }
    #expect(throws: ScheduleError.invalidValue(name: "calendar", value: "daily\nOnCalendar=hourly")) {
      try Schedule(scope: .user, executable: "/x", onCalendar: "daily\nOnCalendar=hourly").validate()
    }
    #expect(throws: ScheduleError.invalidValue(name: "randomized delay", value: " ")) {
      try Schedule(scope: .user, executable: "/x", randomizedDelay: " ").validate()
    }
    let error = ScheduleError.relativeExecutable("sanehosts")
    #expect(error.errorDescription?.contains("“sanehosts”") == true)
    #expect(error.recoverySuggestion?.contains("full path") == true)
  }

  @Test("Install writes both units, then reloads systemd and enables the timer; remove undoes it")
  func installAndRemove() async throws {
    try await TemporaryDirectory.with { directory in
      let units = directory.file("systemd/user").path
      let schedule = Schedule(scope: .user, executable: "/usr/bin/sanehosts")
      let runner = RecordingRunner()
      let written = try await schedule.install(into: units, runner: runner, enable: true)
      #expect(written == ["\(units)/sanehosts-update.service", "\(units)/sanehosts-update.timer"])
      #expect(try String(contentsOfFile: written[0], encoding: .utf8) == schedule.serviceUnit())
      #expect(try String(contentsOfFile: written[1], encoding: .utf8) == schedule.timerUnit())
      let mode = try FileManager.default.attributesOfItem(atPath: written[0])[.posixPermissions] as? Int
      #expect(mode == 0o644)
      #expect(
        runner.calls == [
          ["systemctl", "--user", "daemon-reload"],
          ["systemctl", "--user", "enable", "--now", "sanehosts-update.timer"],
        ])

      // Installing again replaces the files in place.
      let changed = Schedule(scope: .user, executable: "/usr/bin/sanehosts", onCalendar: "weekly")
      try await changed.install(into: units, runner: runner, enable: false)
      #expect(try String(contentsOfFile: written[1], encoding: .utf8).contains("OnCalendar=weekly"))
      #expect(runner.calls.count == 2)
      #expect(directory.contents() == ["systemd"])
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: units).sorted() == [
          Schedule.serviceName, Schedule.timerName,
        ])

      let removed = try await schedule.remove(from: units, runner: runner, disable: true)
      #expect(removed == ["\(units)/sanehosts-update.timer", "\(units)/sanehosts-update.service"])
      #expect(try FileManager.default.contentsOfDirectory(atPath: units).isEmpty)
      #expect(
        runner.calls.suffix(2) == [
          ["systemctl", "--user", "disable", "--now", "sanehosts-update.timer"],
          ["systemctl", "--user", "daemon-reload"],
        ])
      // Nothing left to remove: nothing to do.
      #expect(try await schedule.remove(from: units, runner: runner).isEmpty)
      #expect(runner.calls.count == 4)
    }
  }

  @Test("The system scope runs systemctl without --user")
  func systemScope() async throws {
    try await TemporaryDirectory.with { directory in
      let runner = RecordingRunner()
      try await Schedule(scope: .system, executable: "/usr/bin/sanehosts").install(
        into: directory.url.path, runner: runner)
      #expect(
        runner.calls == [["systemctl", "daemon-reload"], ["systemctl", "enable", "--now", "sanehosts-update.timer"]])
    }
  }

  @Test("A failing systemctl is an error naming the command; the units stay written")
  func systemctlFails() async throws {
    try await TemporaryDirectory.with { directory in
      let runner = RecordingRunner { _, arguments in
        arguments.contains("enable")
          ? .output(ProcessOutput(status: 1, standardError: "Failed to connect to bus: No medium found"))
          : .output(ProcessOutput(status: 0))
      }
      let schedule = Schedule(scope: .user, executable: "/usr/bin/sanehosts")
      await #expect(
        throws: ScheduleError.systemctlFailed(
          command: "systemctl --user enable --now sanehosts-update.timer",
          output: "Failed to connect to bus: No medium found")
      ) {
        try await schedule.install(into: directory.url.path, runner: runner)
      }
      #expect(directory.contents() == [Schedule.serviceName, Schedule.timerName])
      let missing = RecordingRunner { name, _ in .failure(.notFound(name)) }
      let error = await #expect(throws: ScheduleError.self) {
        try await schedule.install(into: directory.url.path, runner: missing)
      }
      #expect(error?.errorDescription?.contains("systemctl --user daemon-reload") == true)
    }
  }

  @Test("A directory that cannot be written is an error naming it")
  func unwritable() async throws {
    try await TemporaryDirectory.with { directory in
      let file = directory.file("file")
      try Data().write(to: file)
      let error = await #expect(throws: ScheduleError.self) {
        try await Schedule(scope: .user, executable: "/x").install(
          into: file.path + "/units", runner: RecordingRunner())
      }
      guard case .unwritable(let path, _) = error else {
        Issue.record("expected unwritable, got \(String(describing: error))")
        return
      }
      #expect(path == file.path + "/units")
    }
  }

  @Test("systemd-analyze verify accepts the written units")
  func verify() async throws {
    // systemd-analyze comes with systemd itself, which scripts/test.sh does not install: skip the check
    // only when the program is missing. It verifies with the system manager's rules (a user manager
    // needs a login session), and needs an executable that exists.
    guard let analyze = ProcessRunner.which("systemd-analyze") else { return }
    try await TemporaryDirectory.with { directory in
      let tool = directory.file("my tools/sanehosts")
      try FileManager.default.createDirectory(at: tool.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data("#!/bin/sh\nexit 0\n".utf8).write(to: tool)
      try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: tool.path)
      let schedule = Schedule(
        scope: .system, executable: tool.path,
        applyArguments: ["--hosts-file", "/tmp/a b/hosts", "--note", "100% \"x\""],
        onCalendar: "*-*-* 04:00:00", dataDirectory: directory.file("data dir").path)
      let units = directory.file("units").path
      let written = try await schedule.install(into: units, runner: RecordingRunner(), enable: false)
      let result = try await ProcessRunner().run(analyze, ["verify"] + written)
      #expect(result.status == 0, "\(result.standardError)")
      #expect(!result.standardError.contains("sanehosts-update"), "\(result.standardError)")
    }
  }
}
