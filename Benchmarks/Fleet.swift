import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The fleet on the 10 real lists' profile (about 416,000 names), each server in a network namespace of
/// its own joined by a bridge: a real BIND primary (`apply --target bind --transfer-to …`), real BIND,
/// unbound and PowerDNS Recursor secondaries configured by `fleet add --write`, a dnsmasq upstream.
///
/// Measured: each secondary's first copy (AXFR) to its first blocked answer and its resident memory
/// (the cost table `ServerCost` holds); a 1 % change (4,160 names added as a local list) from `fleet sync`
/// to every replica verified (goal ≤ 2 s); the bytes of that change's IXFR beside the first, whole
/// transfer (BIND's own log); and `fleet status` of 5 replicas (goal ≤ 1 s). Needs root (`ip netns`).
extension Benchmark {
  /// The lab's addresses: the upstream, the primary, then the three secondaries.
  static let fleetSubnet = "10.231.7"

  static func fleetBenchmark(sanehosts: String, lists: URL, work: URL, goals: Goals) throws {
    guard geteuid() == 0 else {
      print("fleet: skipped (network namespaces need root)")
      return
    }
    let folder = work.appending(path: "fleet-bench")
    try? FileManager.default.removeItem(at: folder)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let (port, server) = serve(lists)
    var children: [pid_t] = [server]
    defer {
      for child in children.reversed() {
        kill(child, SIGTERM)
        waitpid(child, nil, 0)
      }
      removeFleetLab()
      unsetenv("SANEHOSTS_HOME")
    }
    freshProfile(at: folder.appending(path: "home"), sanehosts: sanehosts, port: port, files: tenLists)
    guard run([sanehosts, "update", "--quiet"]).status == 0 else { fail("fleet: update failed") }
    serverCostBenchmark(sanehosts: sanehosts, work: folder)
    print("")
    try createFleetLab()
    let address = { (host: Int) in "\(fleetSubnet).\(host)" }
    children.append(inNamespace(1, upstreamCommand(address(1))))
    let output = folder.appending(path: "db.sanehosts.rpz").path
    let apply =
      [sanehosts, "apply", "--quiet", "--target", "bind", "--output", output, "--primary-address", address(2)]
      + (3...5).flatMap { ["--transfer-to", address($0)] }
    _ = run(apply, silenceErrors: true)  // BIND is not running yet: this writes its configuration.
    let primaryStart = ContinuousClock.now
    children.append(
      inNamespace(
        2,
        namedCommand(
          folder: folder, name: "primary", address: address(2), lines: ["recursion no;"],
          include: output + ".primary.conf")))
    guard waitForAnswer(address(2), "sanehosts.rpz", type: "SOA", status: "NOERROR", seconds: 120) else {
      fail("fleet: the primary never served the zone")
    }
    print("fleet: the 10 real lists' profile, a BIND primary and three secondaries in network namespaces")
    print(String(format: "  primary        %.1f s to load the zone", seconds(since: primaryStart)))
    let kinds = [("bind2", "bind"), ("unbound2", "unbound"), ("pdns2", "pdns-recursor")]
    var secondaries: [(name: String, pid: pid_t)] = []
    for (index, (name, kind)) in kinds.enumerated() {
      let host = 3 + index
      let snippet = folder.appending(path: "\(name).conf").path
      let added = run(
        [
          sanehosts, "fleet", "add", name, "--resolver", address(host), "--kind", kind, "--primary", address(2),
          "--write", snippet, "--copy", folder.appending(path: "\(name).copy").path,
        ], silenceErrors: true)
      guard added.status == 0 else { fail("fleet: fleet add \(name) failed") }
      let start = ContinuousClock.now
      let pid = inNamespace(
        host, secondaryCommand(kind: kind, folder: folder, name: name, address: address(host), snippet: snippet))
      children.append(pid)
      guard waitForAnswer(address(host), "doubleclick.net", type: "A", status: "NXDOMAIN", seconds: 180) else {
        fail("fleet: \(name) never blocked")
      }
      let loaded = seconds(since: start)
      let resident = residentKiB(of: pid).map { Double($0) / 1024 } ?? 0
      secondaries.append((name, pid))
      print(
        "  " + name.padding(toLength: 14, withPad: " ", startingAt: 0)
          + String(
            format: " %.1f s from start to blocking (whole transfer and load), %.0f MiB resident", loaded, resident))
    }
    for (name, host) in [("check-bind", 3), ("check-unbound", 4)] {
      _ = run([sanehosts, "fleet", "add", name, "--resolver", address(host)], silenceErrors: true)
    }
    let sync = [sanehosts, "fleet", "sync", "--primary-address", address(2), "--settle", "20"]
    let first = run(sync, silenceErrors: true)
    print(
      String(
        format: "  first sync     %.2f s (the primary's zone read back once by AXFR), exit %d", first.seconds,
        first.status))
    // 1 % added, by phase: the push alone (apply), then the replicas asked (status, once they have it).
    try oneFleetPercent(folder: folder, sanehosts: sanehosts, add: true)
    let push = run(apply, silenceErrors: true)
    print(
      String(
        format: "  1 %% added      %.2f s to send it to the primary (apply --transfer-to), exit %d", push.seconds,
        push.status))
    usleep(2_000_000)
    let asked = run([sanehosts, "fleet", "status"], silenceErrors: true)
    print(
      String(
        format: "                 %.2f s to verify the 5 replicas once they had it (fleet status), exit %d",
        asked.seconds, asked.status))
    // 1 % removed, whole: from fleet sync to every replica verified.
    let transfersBefore = transferLines(folder.appending(path: "bind2.log").path).count
    try oneFleetPercent(folder: folder, sanehosts: sanehosts, add: false)
    let change = run(sync, silenceErrors: true)
    print(
      String(
        format: "  1 %% removed    %.2f s from fleet sync to every replica verified (goal ≤ 2 s), exit %d",
        change.seconds, change.status))
    goals.add(
      "fleet: 1 % change to 5 replicas verified", change.status == 0 ? change.seconds : nil, "s", atMost: 2,
      note: change.status == 0 ? "" : "a replica was not verified")
    usleep(1_000_000)
    let transfers = transferLines(folder.appending(path: "bind2.log").path)
    if let whole = transfers.first, transfers.count > transfersBefore {
      let change = transfers[transfersBefore...]
      let sums = (0..<3).map { field in change.reduce(0) { $0 + (number(field, in: $1) ?? 0) } }
      print("  BIND secondary: its first, whole copy (AXFR) \(whole)")
      print(
        "                  the 1 % removal by IXFR: \(change.count) transfers, \(sums[0]) messages, \(sums[1]) records, \(sums[2]) bytes"
      )
      if let wholeBytes = number(2, in: whole) {
        goals.add(
          "fleet: 1 % change by IXFR, of a whole copy", Double(sums[2]) / Double(wholeBytes) * 100, "%", atMost: 5)
      }
    }
    let status = median((0..<5).map { _ in run([sanehosts, "fleet", "status"], silenceErrors: true) })
    print(
      String(
        format: "  fleet status   %.2f s for 5 replicas (median of 5; goal ≤ 1 s), exit %d", status.seconds,
        status.status))
    goals.add("fleet: status of 5 replicas", status.seconds, "s", atMost: 1)
  }

  /// Adds a local list of 4,160 new names (1 % of the profile), or removes it again, and updates.
  static func oneFleetPercent(folder: URL, sanehosts: String, add: Bool) throws {
    let file = folder.appending(path: "one-percent.txt")
    try Data((0..<4160).map { "fleet-bench-\($0).website\n" }.joined().utf8).write(to: file)
    let change = add ? ["sources", "add", file.path, "--name", "one-percent"] : ["sources", "remove", file.path]
    guard run([sanehosts] + change, silenceErrors: true).status == 0,
      run([sanehosts, "update", "--quiet"], silenceErrors: true).status == 0
    else { fail("fleet: the 1 % change could not be made") }
  }

  /// `N messages, N records, N bytes` of each transfer a BIND secondary logged.
  static func transferLines(_ log: String) -> [String] {
    guard let text = try? String(contentsOfFile: log, encoding: .utf8) else { return [] }
    return text.split(separator: "\n").compactMap { line in
      guard let range = line.range(of: "Transfer completed: ") else { return nil }
      return String(line[range.upperBound...].prefix { $0 != "(" }).trimmingCharacters(in: .whitespaces)
    }
  }

  /// The `field`th number of a transfer line (`N messages, N records, N bytes, …`).
  static func number(_ field: Int, in line: String) -> Int? {
    let parts = line.split(separator: ",")
    guard field < parts.count else { return nil }
    return parts[field].split(separator: " ").first.flatMap { Int($0) }
  }

  /// `VmRSS` of a running process, in KiB.
  static func residentKiB(of pid: pid_t) -> Int? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
      let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
    else { return nil }
    return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
  }

  /// Asks `server` for `name` with dig until the status is `status`, for at most `seconds`.
  static func waitForAnswer(_ server: String, _ name: String, type: String, status: String, seconds limit: Double)
    -> Bool
  {
    let start = ContinuousClock.now
    while seconds(since: start) < limit {
      if digOutput(server: server, name: name, type: type).contains("status: \(status)") { return true }
      usleep(100_000)
    }
    return false
  }

  /// Starts `command` in host `host`'s namespace, its output to nothing.
  static func inNamespace(_ host: Int, _ command: [String]) -> pid_t {
    spawn(["/usr/sbin/ip", "netns", "exec", "sbf\(host)"] + command, silenceErrors: true)
  }

  static func upstreamCommand(_ address: String) -> [String] {
    [
      "/usr/sbin/dnsmasq", "--keep-in-foreground", "--listen-address=\(address)", "--bind-interfaces", "--port=53",
      "--no-resolv", "--no-hosts", "--pid-file=", "--user=root", "--conf-file=/dev/null", "--address=/#/192.0.2.1",
      "--address=/#/2001:db8::1",
    ]
  }

  /// `named` in the foreground with `lines` in its options and `include` included; its log in the folder.
  static func namedCommand(folder: URL, name: String, address: String, lines: [String], include: String) -> [String] {
    let state = folder.appending(path: name)
    try? FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
    let configuration = """
      controls { };
      options {
        directory "\(state.path)"; pid-file none; session-keyfile none; bindkeys-file "/dev/null";
        listen-on port 53 { \(address); }; listen-on-v6 { none; }; allow-query { any; }; dnssec-validation no;
        \(lines.joined(separator: "\n  "))
      };
      include "\(include)";
      logging { channel everything { file "\(folder.appending(path: "\(name).log").path)"; print-time yes; severity info; }; category default { everything; }; category xfer-in { everything; }; };

      """
    let file = state.appending(path: "named.conf")
    try? Data(configuration.utf8).write(to: file)
    return ["/usr/sbin/named", "-f", "-c", file.path]
  }

  /// A secondary of `kind` including `snippet` (what `fleet add --write` wrote), forwarding to the upstream.
  static func secondaryCommand(kind: String, folder: URL, name: String, address: String, snippet: String) -> [String] {
    let upstream = "\(fleetSubnet).1"
    switch kind {
    case "bind":
      return namedCommand(
        folder: folder, name: name, address: address,
        lines: [
          "recursion yes; allow-recursion { any; }; forwarders { \(upstream); }; forward only; max-cache-size 64m;",
          "response-policy { zone \"sanehosts.rpz\" min-update-interval 0; } qname-wait-recurse no;",
        ], include: snippet)
    case "unbound":
      let configuration = folder.appending(path: "\(name).unbound.conf")
      let text = """
        server:
          interface: \(address)
          port: 53
          do-daemonize: no
          chroot: ""
          username: ""
          directory: "\(folder.path)"
          pidfile: ""
          use-syslog: no
          access-control: 0.0.0.0/0 allow
          module-config: "respip iterator"
        remote-control:
          control-enable: no
        forward-zone:
          name: "."
          forward-addr: \(upstream)@53
        include: "\(snippet)"

        """
      try? Data(text.utf8).write(to: configuration)
      return ["/usr/sbin/unbound", "-d", "-c", configuration.path]
    default:
      let state = folder.appending(path: name)
      try? FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
      try? Data().write(to: state.appending(path: "recursor.conf"))
      return [
        "/usr/sbin/pdns_recursor", "--config-dir=\(state.path)", "--socket-dir=\(state.path)", "--daemon=no",
        "--write-pid=no", "--local-address=\(address):53", "--allow-from=0.0.0.0/0", "--lua-config-file=\(snippet)",
        "--dnssec=off", "--forward-zones-recurse=.=\(upstream):53", "--disable-syslog=yes", "--security-poll-suffix=",
        "--threads=1", "--dont-query=",
      ]
    }
  }

  /// A bridge `sbfbr` (the benchmark's own address .254) and hosts `sbf1`…`sbf5` on it.
  static func createFleetLab() throws {
    removeFleetLab()
    func ip(_ words: String) {
      guard run(["/usr/sbin/ip"] + words.split(separator: " ").map(String.init), silenceErrors: true).status == 0 else {
        fail("fleet: ip \(words) failed")
      }
    }
    ip("link add sbfbr type bridge")
    ip("addr add \(fleetSubnet).254/24 dev sbfbr")
    ip("link set sbfbr up")
    for host in 1...5 {
      ip("netns add sbf\(host)")
      ip("link add sbfv\(host) type veth peer name eth0 netns sbf\(host)")
      ip("link set sbfv\(host) master sbfbr up")
      ip("-n sbf\(host) addr add \(fleetSubnet).\(host)/24 dev eth0")
      ip("-n sbf\(host) link set eth0 up")
      ip("-n sbf\(host) link set lo up")
    }
  }

  static func removeFleetLab() {
    for host in 1...5 { _ = run(["/usr/sbin/ip", "netns", "delete", "sbf\(host)"], silenceErrors: true) }
    _ = run(["/usr/sbin/ip", "link", "delete", "sbfbr"], silenceErrors: true)
  }
}
