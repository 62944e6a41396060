import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// What each drop-in server costs to hold the 10 real lists' profile (the table `ServerCost` holds for
/// `apply`): the drop-in `apply --target` writes, the server started on it on 127.0.0.1, the time from
/// start to its first blocked answer and its resident memory then, beside the same server started without
/// the drop-in (its idle size). The secondaries' costs come from the fleet benchmark.
extension Benchmark {
  /// A drop-in server: its target, the drop-in's file name, the command that serves `file` on `port`
  /// (nil: without a drop-in), and the answer that says `doubleclick.net` is blocked.
  struct DropInServer: Sendable {
    var target: String
    var file: String
    var blocked: String
    var command: @Sendable (_ port: Int, _ file: String?, _ state: URL) -> [String]
  }

  static let dropInServers: [DropInServer] = [
    DropInServer(target: "dnsmasq", file: "sanehosts.servers", blocked: "status: NXDOMAIN") { port, file, _ in
      [
        "/usr/sbin/dnsmasq", "--keep-in-foreground", "--port=\(port)", "--listen-address=127.0.0.1",
        "--bind-interfaces", "--no-resolv", "--no-hosts", "--pid-file=", "--conf-file=/dev/null",
        "--address=/#/192.0.2.1",
      ] + (geteuid() == 0 ? ["--user=root"] : []) + (file.map { ["--servers-file=\($0)"] } ?? [])
    },
    DropInServer(target: "unbound", file: "sanehosts.conf", blocked: "0.0.0.0") { port, file, state in
      let configuration = state.appending(path: "unbound-\(file == nil ? "idle" : "loaded").conf")
      let text = """
        server:
          interface: 127.0.0.1
          port: \(port)
          do-daemonize: no
          chroot: ""
          username: ""
          directory: "\(state.path)"
          pidfile: ""
          use-syslog: no
          local-zone: "." always_refuse
        \(file.map { "  include: \"\($0)\"" } ?? "")
        remote-control:
          control-enable: no

        """
      try? Data(text.utf8).write(to: configuration)
      return ["/usr/sbin/unbound", "-d", "-c", configuration.path]
    },
    DropInServer(target: "knot-resolver", file: "sanehosts.rpz", blocked: "status: NXDOMAIN") { port, file, state in
      let folder = state.appending(path: "kresd-\(file == nil ? "idle" : "loaded")")
      try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let loader = file.map { String($0.dropLast(4)) + ".lua" }
      let text = """
        net.listen('127.0.0.1', \(port), { kind = 'dns' })
        cache.open(10 * MB, 'lmdb://\(folder.path)/cache')
        trust_anchors.remove('.')
        \(loader.map { "dofile('\($0)')" } ?? "")
        policy.add(policy.all(policy.REFUSE))

        """
      let configuration = folder.appending(path: "kresd.conf")
      try? Data(text.utf8).write(to: configuration)
      return ["/usr/sbin/kresd", "-n", "-c", configuration.path, folder.path]
    },
  ]

  /// Each drop-in server's load time and memory with the profile of `home` (the fleet benchmark's).
  static func serverCostBenchmark(sanehosts: String, work: URL) {
    let state = work.appending(path: "server-costs")
    try? FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
    print(
      "drop-in servers: the same profile, each server on 127.0.0.1 (start to first blocked answer; resident then, over its idle size)"
    )
    for server in dropInServers where FileManager.default.isExecutableFile(atPath: server.command(0, nil, state)[0]) {
      let file = state.appending(path: server.file).path
      guard
        run(
          [sanehosts, "apply", "--quiet", "--target", server.target, "--output", file, "--no-check"],
          silenceErrors: true
        ).status == 0
      else {
        print("  \(server.target): apply failed")
        continue
      }
      guard let idle = residentWhenAnswering(server, file: nil, state: state, blocked: nil),
        let loaded = residentWhenAnswering(server, file: file, state: state, blocked: server.blocked)
      else {
        print("  \(server.target): did not answer within 300 s")
        continue
      }
      print(
        "  " + server.target.padding(toLength: 14, withPad: " ", startingAt: 0)
          + String(
            format: " %.2f s, %.0f MiB (idle %.0f MiB): %.0f MiB over idle", loaded.seconds, loaded.mebibytes,
            idle.mebibytes, loaded.mebibytes - idle.mebibytes))
    }
  }

  /// Starts `server` (on `file`, or without a drop-in), waits until it answers (`blocked`: until
  /// `doubleclick.net` is answered so), and returns the seconds that took and its resident MiB then.
  static func residentWhenAnswering(_ server: DropInServer, file: String?, state: URL, blocked: String?) -> (
    seconds: Double, mebibytes: Double
  )? {
    let port = freePort(type: SOCK_DGRAM)
    let start = ContinuousClock.now
    let pid = spawn(server.command(port, file, state), silenceErrors: true)
    defer {
      kill(pid, SIGTERM)
      waitpid(pid, nil, 0)
    }
    while seconds(since: start) < 300 {
      let output = digOutput(port: port, name: blocked == nil ? "readiness.invalid" : "doubleclick.net", type: "A")
      if let blocked { if output.contains(blocked) { break } } else if output.contains("status: ") { break }
      var status: Int32 = 0
      if waitpid(pid, &status, WNOHANG) == pid { return nil }
      usleep(50_000)
    }
    guard seconds(since: start) < 300 else { return nil }
    let elapsed = seconds(since: start)
    usleep(500_000)
    return (elapsed, Double(residentKiB(of: pid) ?? 0) / 1024)
  }

  /// What `dig` prints for `name`'s `type` records at `server`:`port` (header and answer).
  static func digOutput(server: String = "127.0.0.1", port: Int = 53, name: String, type: String) -> String {
    let pipe = Pipe()
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/dig")
    process.arguments = [
      "@\(server)", "-p", "\(port)", "+time=1", "+tries=1", "+noall", "+comments", "+answer", name, type,
    ]
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return "" }
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return output
  }
}
