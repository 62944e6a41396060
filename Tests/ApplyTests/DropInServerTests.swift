import Apply
import Foundation
import TestSupport
import Testing

@Suite("Checking drop-ins with the servers' own checkers (DropInServer.check)")
struct ServerKindTests {
  @Test("The real checkers accept every rendered target", arguments: ServerTarget.allCases)
  func accepted(_ target: ServerTarget) async throws {
    // A missing checker fails here, naming the package: CI installs them.
    _ = try RequiredTool.path(target.checker, package: target.checkerPackage)
    try await TemporaryDirectory.with { directory in
      let path = try await writeSample(target, in: directory.url)
      let check = await target.check(path, runner: ProcessRunner())
      #expect(check == .passed(tool: target.checker), "\(check.summary)")
    }
  }

  @Test("The real checkers reject broken files and say why")
  func rejected() async throws {
    try await TemporaryDirectory.with { directory in
      let broken: [(ServerTarget, String, String)] = [
        (.dnsmasq, "address=/ads.website/#\nno-such-option=1\n", "bad option"),
        (.unbound, "server:\nlocal-zone: \"ads.website.\" nonsense\n", "local-zone"),
        (
          .bind,
          "$TTL 300\n@ IN SOA localhost. root.localhost. 1 3600 600 86400 300\n@ IN NS localhost.\nbad line here\n",
          "unknown"
        ),
      ]
      for (target, text, reason) in broken {
        _ = try RequiredTool.path(target.checker, package: target.checkerPackage)
        let file = directory.file("broken-\(target.rawValue)")
        try Data(text.utf8).write(to: file)
        let check = await target.check(file.path, runner: ProcessRunner())
        guard case .failed(let tool, let output) = check else {
          Issue.record("\(target) accepted a broken file: \(check)")
          continue
        }
        #expect(tool == target.checker)
        #expect(output.contains(reason), "\(target): \(output)")
      }
      let missing = await ServerTarget.dnsmasqHosts.check(directory.file("none.hosts").path, runner: ProcessRunner())
      #expect(missing == .failed(tool: "dnsmasq", output: "cannot read \(directory.file("none.hosts").path)"))
    }
  }

  @Test("Each target runs its checker with these arguments")
  func arguments() async throws {
    let runner = RecordingRunner()
    // The hosts target first checks that the file can be read: see hostsArguments.
    for target in ServerTarget.allCases where target != .dnsmasqHosts {
      #expect(await target.check("/tmp/x", runner: runner) == .passed(tool: target.checker))
    }
    let calls = runner.calls
    #expect(calls.contains(["dnsmasq", "--test", "--conf-file=/tmp/x"]))
    #expect(calls.contains(["named-checkzone", "sanehosts.rpz", "/tmp/x"]))
    let unbound = try #require(calls.first { $0.first == "unbound-checkconf" })
    #expect(unbound.count == 2)
    // The temporary wrapper is gone once the check is done.
    #expect(!FileManager.default.fileExists(atPath: unbound[1]))
  }

  @Test("The dnsmasq hosts target runs dnsmasq on the file without reading /etc")
  func hostsArguments() async throws {
    try await TemporaryDirectory.with { directory in
      let path = try await writeSample(.dnsmasqHosts, in: directory.url)
      let runner = RecordingRunner()
      #expect(await ServerTarget.dnsmasqHosts.check(path, runner: runner) == .passed(tool: "dnsmasq"))
      #expect(runner.calls == [["dnsmasq", "--test", "--conf-file=/dev/null", "--no-hosts", "--addn-hosts=\(path)"]])
    }
  }

  @Test("Unbound's wrapper needs no chroot, user or pid file and includes the file")
  func unboundWrapper() async throws {
    let runner = RecordingRunner { _, arguments in
      let wrapper = (try? String(contentsOfFile: arguments[0], encoding: .utf8)) ?? ""
      let expected = ["chroot: \"\"", "username: \"\"", "pidfile: \"\"", "include: \"/etc/x.conf\""]
      return .output(ProcessOutput(status: expected.allSatisfy(wrapper.contains) ? 0 : 1, standardOutput: wrapper))
    }
    #expect(await ServerTarget.unbound.check("/etc/x.conf", runner: runner) == .passed(tool: "unbound-checkconf"))
  }

  @Test("A missing checker makes the check unavailable, not failed")
  func unavailable() async {
    let runner = RecordingRunner { name, _ in .failure(.notFound(name)) }
    for target in ServerTarget.allCases where target != .dnsmasqHosts {
      #expect(await target.check("/tmp/x", runner: runner) == .unavailable(tool: target.checker))
    }
  }

  @Test("A checker's output on failure is kept, both streams")
  func failureOutput() async {
    let runner = RecordingRunner { _, _ in
      .output(ProcessOutput(status: 1, standardOutput: "zone loading\n", standardError: "line 3: bad\n"))
    }
    #expect(
      await ServerTarget.bind.check("/tmp/x", runner: runner)
        == .failed(tool: "named-checkzone", output: "zone loading\nline 3: bad"))
  }
}
