import Apply
import Foundation
import TestSupport
import Testing

@Suite("sanehosts schedule")
struct ScheduleCommandTests {
  @Test("install --no-enable writes both units with the apply options; remove deletes them")
  func installAndRemove() async throws {
    let cli = try StoreCLI()
    defer { cli.remove() }
    let units = cli.directory.file("units").path
    try await cli.ok(
      "schedule", "install", "--user", "--unit-dir", units, "--no-enable", "--target", "unbound", "--output",
      "/etc/unbound/unbound.conf.d/sanehosts.conf", "--reload", "--on-calendar", "weekly", "--allow-build-binary")
    let service = try String(contentsOfFile: "\(units)/\(Schedule.serviceName)", encoding: .utf8)
    let timer = try String(contentsOfFile: "\(units)/\(Schedule.timerName)", encoding: .utf8)
    let executable = try CommandRunner().executable.resolvingSymlinksInPath().path
    // Regression: the units update the store in use ($SANEHOSTS_HOME here), not the default one.
    #expect(
      service.contains("ExecStart=\(executable) update --quiet --data-dir \(cli.dataDirectory.path)"), "\(service)")
    #expect(
      service.contains(
        "apply --quiet --data-dir \(cli.dataDirectory.path) --target unbound --output /etc/unbound/unbound.conf.d/sanehosts.conf --reload"
      ),
      "\(service)")
    #expect(timer.contains("OnCalendar=weekly"))
    #expect(timer.contains("RandomizedDelaySec=1h"))
    let shown = try await cli.ok("schedule", "show", "--user", "--unit-dir", units, "--on-calendar", "weekly")
    #expect(shown.contains("OnCalendar=weekly"))
    try await cli.ok("schedule", "remove", "--user", "--unit-dir", units, "--no-disable")
    #expect(!FileManager.default.fileExists(atPath: "\(units)/\(Schedule.serviceName)"))
    let again = try await cli.run("schedule", "remove", "--user", "--unit-dir", units, "--no-disable")
    #expect(again.standardError.contains("No SaneHosts timer is installed there"))
  }

  @Test("A user timer for /etc/hosts is warned about; --user and --system do not mix")
  func warnings() async throws {
    let cli = try StoreCLI()
    defer { cli.remove() }
    let units = cli.directory.file("units").path
    // The binary under test lives in .build: refused unless told otherwise, nothing written.
    let refused = try await cli.run("schedule", "install", "--user", "--unit-dir", units, "--no-enable")
    #expect(refused.status != 0)
    #expect(refused.standardError.contains("is inside a build folder"), "\(refused.standardError)")
    #expect(!FileManager.default.fileExists(atPath: "\(units)/\(Schedule.serviceName)"))
    let result = try await cli.run(
      "schedule", "install", "--user", "--unit-dir", units, "--no-enable", "--allow-build-binary")
    #expect(result.status == 0)
    #expect(result.standardError.contains("a user timer cannot write /etc/hosts"))
    let both = try await cli.run("schedule", "show", "--user", "--system")
    #expect(both.status != 0)
  }

  @Test(
    "Regression: the timer updates the profile it applies (it ran `update` of the active profile, then applied family's old copies)"
  )
  func sameProfile() async throws {
    let cli = try StoreCLI()
    defer { cli.remove() }
    try await cli.ok("profile", "create", "family")
    let units = cli.directory.file("units").path
    try await cli.ok(
      "schedule", "install", "--user", "--unit-dir", units, "--no-enable", "--profile", "family", "--hosts-file",
      cli.directory.file("hosts").path, "--allow-build-binary")
    let service = try String(contentsOfFile: "\(units)/\(Schedule.serviceName)", encoding: .utf8)
    let data = cli.dataDirectory.path
    #expect(service.contains(" update --quiet --data-dir \(data) --profile family\n"), "\(service)")
    #expect(service.contains(" apply --quiet --data-dir \(data) --profile family --hosts-file "), "\(service)")
  }

  @Test(
    "Regression: install checks the profile, the calendar (systemd-analyze), the delay and the paths before writing (a bogus calendar and an unknown profile were written, exit 0)"
  )
  func checkedBeforeWriting() async throws {
    let cli = try StoreCLI()
    defer { cli.remove() }
    try await cli.ok("status")
    let units = cli.directory.file("units").path
    let base = ["schedule", "install", "--user", "--unit-dir", units, "--no-enable", "--allow-build-binary"]
    let hosts = ["--hosts-file", cli.directory.file("hosts").path]
    var cases: [([String], String)] = [
      (["--profile", "nope"] + hosts, "nope"),
      (["--hosts-file", "/nonexistent-dir/hosts"], "The folder of /nonexistent-dir/hosts does not exist"),
      (["--target", "unbound", "--output", "/nonexistent-dir/u.conf"], "The folder of /nonexistent-dir/u.conf"),
      (["--output", cli.directory.file("u.conf").path], "--output is the drop-in of a DNS server"),
    ]
    if FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze") {
      cases.append(
        (["--on-calendar", "bogus calendar"] + hosts, "systemd does not take the calendar “bogus calendar”"))
      cases.append((["--randomized-delay", "soon"] + hosts, "systemd does not take the randomized delay “soon”"))
    }
    for (arguments, message) in cases {
      for command in [base, ["schedule", "show", "--user"]] {
        let refused = try await cli.runner.run(command + arguments)
        #expect(refused.status != 0, "\(arguments)")
        #expect(refused.standardError.contains(message), "\(arguments): \(refused.standardError)")
        #expect(!FileManager.default.fileExists(atPath: "\(units)/\(Schedule.serviceName)"), "\(arguments)")
      }
    }
  }
}
