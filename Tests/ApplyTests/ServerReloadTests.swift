import Apply
import Foundation
import TestSupport
import Testing

@Suite("Reloading DNS servers")
struct ServerReloadTests {
  @Test("Each method runs its command and says what it did")
  func commands() async throws {
    let cases: [(ReloadMethod, [String], String)] = [
      (
        .systemd(unit: "dnsmasq"), ["systemctl", "reload", "dnsmasq"], "reloaded dnsmasq with systemctl reload dnsmasq"
      ),
      (
        .systemdRestart(unit: "dnsmasq"), ["systemctl", "restart", "dnsmasq"],
        "restarted dnsmasq with systemctl restart dnsmasq"
      ),
      (.unboundControl, ["unbound-control", "reload"], "reloaded unbound with unbound-control reload"),
      (
        .rndc(zone: "sanehosts.rpz"), ["rndc", "reload", "sanehosts.rpz"],
        "reloaded sanehosts.rpz with rndc reload sanehosts.rpz"
      ),
      (.rndc(zone: nil), ["rndc", "reload"], "reloaded every zone with rndc reload"),
    ]
    for (method, call, description) in cases {
      let runner = RecordingRunner()
      #expect(try await method.perform(runner: runner) == description)
      #expect(runner.calls == [call])
      #expect(method.command == call.joined(separator: " "))
    }
  }

  @Test(
    "Each target's usual reload; dnsmasq's servers-file and hosts file a reload (SIGHUP), a drop-in in /etc/dnsmasq.d a restart"
  )
  func defaults() {
    #expect(ServerTarget.dnsmasq.defaultReload() == .systemd(unit: "dnsmasq"))
    #expect(
      ServerTarget.dnsmasq.defaultReload(output: "/etc/dnsmasq.d/sanehosts.conf") == .systemdRestart(unit: "dnsmasq"))
    #expect(ServerTarget.dnsmasqHosts.defaultReload() == .systemd(unit: "dnsmasq"))
    #expect(ServerTarget.unbound.defaultReload() == .firstOf([.unboundControl, .systemd(unit: "unbound")]))
    #expect(ServerTarget.bind.defaultReload() == .firstOf([.rndc(zone: "sanehosts.rpz"), .systemd(unit: "named")]))
    #expect(ServerTarget.unbound.defaultReload().command == "unbound-control reload, else systemctl reload unbound")
  }

  @Test(
    "The usual reloads are tried in order: the first that works is said with the failures before it; none working names each failure"
  )
  func firstOfInOrder() async throws {
    let method = ReloadMethod.firstOf([.unboundControl, .systemd(unit: "unbound")])
    let fallback = RecordingRunner { name, _ in
      .output(
        ProcessOutput(
          status: name == "unbound-control" ? 1 : 0, standardError: name == "unbound-control" ? "no socket" : ""))
    }
    let done = try await method.perform(runner: fallback)
    #expect(fallback.calls == [["unbound-control", "reload"], ["systemctl", "reload", "unbound"]])
    #expect(
      done.hasPrefix(
        "reloaded unbound with systemctl reload unbound (first: “unbound-control reload” failed with status 1"),
      "\(done)")
    let none = RecordingRunner { name, _ in .failure(.notFound(name)) }
    let error = await #expect(throws: ReloadError.self) { try await method.perform(runner: none) }
    let text = error?.errorDescription ?? ""
    #expect(text.contains("(1) Cannot run “unbound-control reload”: unbound-control is not installed."), "\(text)")
    #expect(text.contains("(2) Cannot run “systemctl reload unbound”: systemctl is not installed."), "\(text)")
  }

  @Test(
    "Regression: --reload-pid refuses a process that is not the target's server, before signalling it (it had killed a web server)"
  )
  func signalOnlyTheServer() async throws {
    try await ForeignProcess.with { pid, isRunning in
      let method = ServerTarget.unbound.reload(output: nil, choice: ReloadChoice(pid: pid))
      #expect(throws: ReloadError.notTheServer(pid: pid, program: "unbound", found: "sleep")) { try method.precheck() }
      await #expect(throws: ReloadError.notTheServer(pid: pid, program: "unbound", found: "sleep")) {
        try await method.perform(runner: RecordingRunner())
      }
      #expect(isRunning())
      let message = ReloadError.notTheServer(pid: pid, program: "unbound", found: "sleep").errorDescription ?? ""
      #expect(
        message == "Process \(pid) is sleep, not unbound: --reload-pid sends SIGHUP only to the target's own server.")
    }
  }

  @Test("Regression: SIGHUP is refused where it cannot reload the drop-in (dnsmasq configuration, kresd, the recursor)")
  func hangUpRefusals() {
    let signal = ReloadChoice(pid: 42)
    let unit = ReloadChoice(unit: "kresd@2")
    let configuration = "/etc/dnsmasq.d/sanehosts.conf"
    #expect(ServerTarget.dnsmasq.refusal(of: signal, output: configuration)?.contains("restarts") == true)
    #expect(ServerTarget.dnsmasq.refusal(of: unit, output: configuration) == nil)
    #expect(ServerTarget.dnsmasq.refusal(of: signal, output: "/etc/sanehosts/dnsmasq.servers") == nil)
    #expect(ServerTarget.dnsmasq.refusal(of: signal, output: nil) == nil)
    for server in [ServerTarget.knotResolver, .pdnsRecursor] {
      #expect(server.refusal(of: signal, output: nil) != nil)
      #expect(server.refusal(of: unit, output: nil) != nil)
      #expect(server.refusal(of: ReloadChoice(socket: "/run/x"), output: nil) == nil)
    }
    #expect(ServerTarget.unbound.refusal(of: signal, output: nil) == nil)
    #expect(ServerTarget.bind.refusal(of: unit, output: nil) == nil)
  }

  @Test("--reload with a process, a unit or a socket: each kind's own method")
  func chosenReloads() {
    let configuration = "/etc/dnsmasq.d/sanehosts.conf"
    #expect(
      ServerTarget.dnsmasq.reload(output: nil, choice: ReloadChoice(pid: 7)) == .signal(pid: 7, program: "dnsmasq"))
    #expect(
      ServerTarget.dnsmasq.reload(output: configuration, choice: ReloadChoice(unit: "dns"))
        == .systemdRestart(unit: "dns"))
    #expect(ServerTarget.dnsmasq.reload(output: nil, choice: ReloadChoice(unit: "dns")) == .systemd(unit: "dns"))
    #expect(ServerTarget.unbound.reload(output: nil, choice: ReloadChoice()) == ServerTarget.unbound.defaultReload())
    #expect(ServerTarget.bind.reload(output: nil, choice: ReloadChoice(pid: 9)) == .signal(pid: 9, program: "named"))
    #expect(
      ServerTarget.pdnsRecursor.reload(output: nil, choice: ReloadChoice(socket: "/run/pdns"))
        == .recControl(socketDirectory: "/run/pdns"))
    #expect(
      ServerTarget.knotResolver.reload(output: "/z.rpz", choice: ReloadChoice(socket: "/run/k"))
        == .knotControl(socket: "/run/k", zone: "/z.rpz"))
    let relative = ServerTarget.knotResolver.reload(output: "z.rpz", choice: ReloadChoice())
    #expect(
      relative
        == .knotControl(
          socket: ServerTarget.knotControlSocket, zone: FileManager.default.currentDirectoryPath + "/z.rpz"))
  }

  @Test("A failed command names the command and its output and points to the service's log")
  func failure() async throws {
    let runner = RecordingRunner { _, _ in
      .output(ProcessOutput(status: 1, standardError: "Job for dnsmasq.service failed.\n"))
    }
    let error = await #expect(throws: ReloadError.self) {
      try await ReloadMethod.systemd(unit: "dnsmasq").perform(runner: runner)
    }
    #expect(
      error == .failed(command: "systemctl reload dnsmasq", status: 1, output: "Job for dnsmasq.service failed."))
    let message = try #require(error?.errorDescription)
    #expect(message.contains("systemctl reload dnsmasq") && message.contains("Job for dnsmasq.service failed."))
    #expect(error?.recoverySuggestion?.contains("log") == true)
  }

  @Test("A missing tool is a named error")
  func missingTool() async throws {
    let runner = RecordingRunner { name, _ in .failure(.notFound(name)) }
    let error = await #expect(throws: ReloadError.self) {
      try await ReloadMethod.unboundControl.perform(runner: runner)
    }
    #expect(error == .toolMissing(tool: "unbound-control", command: "unbound-control reload"))
    #expect(error?.errorDescription?.contains("unbound-control is not installed") == true)
  }

  @Test("SIGHUP to a process that does not exist, or to a process group, is refused")
  func missingProcess() async throws {
    // Above the kernel's largest process id: never a process.
    let limit =
      (try? String(contentsOfFile: "/proc/sys/kernel/pid_max", encoding: .utf8))
      .flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 4_194_304
    let pid = limit + 1
    await #expect(throws: ReloadError.noSuchProcess(pid: pid)) {
      try await ReloadMethod.signal(pid: pid, program: "dnsmasq").perform(runner: RecordingRunner())
    }
    #expect(ReloadError.noSuchProcess(pid: pid).errorDescription?.contains("\(pid)") == true)
    for group in [0, -1] as [Int32] {
      await #expect(throws: ReloadError.invalidProcess(pid: group)) {
        try await ReloadMethod.signal(pid: group, program: "dnsmasq").perform(runner: RecordingRunner())
      }
    }
  }

  @Test("SIGHUP makes a running dnsmasq read its hosts file again")
  func signalDnsmasq() async throws {
    try await TemporaryDirectory.with { directory in
      let hosts = try await writeSample(.dnsmasqHosts, in: directory.url)
      try await DNSServerProcess.withDnsmasq(arguments: ["--addn-hosts=\(hosts)"], directory: directory.url) { server in
        let dig = try Dig(port: server.port)
        #expect(try await dig.query("ads.website") == ["0.0.0.0"], "\(server.log())")
        #expect(try await dig.query("new.website") == [])
        try Data("0.0.0.0 new.website\n".utf8).write(to: URL(fileURLWithPath: hosts))
        let done = try await ReloadMethod.signal(pid: server.pid, program: "dnsmasq").perform(runner: RecordingRunner())
        #expect(done == "sent SIGHUP to process \(server.pid) (dnsmasq)")
        // dnsmasq handles the signal in its own loop: ask until the new file is in use (bounded).
        let reloaded = await eventually(within: 10) {
          (try? await dig.query("new.website")) == ["0.0.0.0"]
        }
        #expect(reloaded, "\(server.log())")
        #expect(try await dig.query("ads.website") == [])
      }
    }
  }
}
