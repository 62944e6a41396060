import Foundation

#if canImport(Glibc)
  import Glibc
#endif

extension Benchmark {
  /// `sanehosts hits` on a seeded dnsmasq log of 1,000,000 lines (`log-queries=extra`), against the
  /// profile of the 10 real lists the update benchmark left (416,000 names): a quarter of the queries
  /// for names of that profile (query and `config` lines), the rest for 30,000 other names (query,
  /// forwarded, reply), 40 clients. Beside `wc -l` of the same file.
  static func hitsBenchmark(sanehosts: String, work: URL, runs: Int, goals: Goals) throws {
    let home = work.appending(path: "update-bench")
    let hostsOutput = work.appending(path: "update-bench.out")
    guard FileManager.default.fileExists(atPath: home.path),
      let blockedText = try? String(contentsOf: hostsOutput, encoding: .utf8)
    else {
      print("hits: skipped (the update benchmark's profile is missing)")
      return
    }
    // Every 20th name the profile blocks.
    let blocked = blockedText.split(separator: "\n").enumerated().compactMap { index, line -> Substring? in
      guard index % 20 == 0, line.hasPrefix("0.0.0.0 ") else { return nil }
      return line.dropFirst(8)
    }
    let log = work.appending(path: "hits-1M.log")
    if !FileManager.default.fileExists(atPath: log.path) {
      try Data(syntheticLog(lines: 1_000_000, blocked: blocked).utf8).write(to: log)
    }
    setenv("SANEHOSTS_HOME", home.path, 1)
    defer { unsetenv("SANEHOSTS_HOME") }
    let command = [sanehosts, "hits", "--log", "dnsmasq:\(log.path)", "--json"]
    _ = run(command)
    let measured = median((0..<runs).map { _ in run(command) })
    guard measured.status == 0 else { fail("hits exited \(measured.status)") }
    let count = median((0..<runs).map { _ in run(["wc", "-l", log.path]) })
    print("hits: a dnsmasq log of 1,000,000 lines against the 10 real lists' profile (416,000 names)")
    print(
      String(
        format: "  hits           %.2f s  peak %.0f MiB  (median of %d; target ≤ 1 s, ≤ 200 MiB)", measured.seconds,
        measured.peakMiB, runs))
    print(String(format: "  wc -l          %.3f s  (the same file, median of %d)", count.seconds, runs))
    goals.add("1M log lines attributed (hits): time", measured.seconds, "s", atMost: 1)
    goals.add("1M log lines attributed (hits): peak", measured.peakMiB, "MiB", atMost: 200)
    allowRulesBenchmark(sanehosts: sanehosts, log: log, blocked: blocked, runs: runs, goals: goals)
    journalBenchmark(sanehosts: sanehosts, log: log, work: work, runs: runs, goals: goals)
    if let delays = feedDelays(sanehosts: sanehosts, work: work, names: Array(blocked.prefix(20))) {
      let sorted = delays.sorted()
      print(
        String(
          format:
            "  --follow       %.3f s from a log line to its output (median of %d; the slowest %.3f s; target ≤ 0.2 s)",
          sorted[sorted.count / 2], sorted.count, sorted.last ?? 0))
      goals.add("hits --follow: log line to output (median)", sorted[sorted.count / 2], "s", atMost: 0.2)
    }
  }

  /// `hits --follow --json` on a log that grows by one blocked query at a time: for each, the time from
  /// its write to the feed's line on standard output.
  static func feedDelays(sanehosts: String, work: URL, names: [Substring]) -> [Double]? {
    let log = work.appending(path: "hits-follow.log")
    try? Data().write(to: log)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: sanehosts)
    process.arguments = ["hits", "--follow", "--json", "--log", "dnsmasq:\(log.path)"]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil, let handle = try? FileHandle(forWritingTo: log) else { return nil }
    defer {
      process.terminate()
      process.waitUntilExit()
    }
    usleep(800_000)  // the feed starts at the log's end once the profile is loaded
    var delays: [Double] = []
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.dateFormat = "MMM dd HH:mm:ss"
    for name in names {
      let line = "\(formatter.string(from: Date())) dnsmasq[812]: query[A] \(name) from 10.0.0.2\n"
      let start = ContinuousClock.now
      handle.write(Data(line.utf8))
      var received = Data()
      while !received.contains(0x0A) {
        let chunk = pipe.fileHandleForReading.availableData
        if chunk.isEmpty { return nil }
        received += chunk
      }
      delays.append(seconds(since: start))
      usleep(50_000)
    }
    return delays
  }

  /// The log's text: queries a second apart in tens, each with the lines dnsmasq writes for it.
  static func syntheticLog(lines: Int, blocked: [Substring]) -> String {
    var state: UInt64 = 35
    func next() -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int(state >> 33)
    }
    var text = ""
    text.reserveCapacity(lines * 80)
    var written = 0
    var serial = 0
    while written < lines {
      serial += 1
      let second = serial / 10
      let stamp = String(format: "Nov 27 %02d:%02d:%02d", second / 3600 % 24, second / 60 % 60, second % 60)
      let client = "10.0.0.\(next() % 40 + 2)/\(next() % 60_000 + 1024)"
      let prefix = "\(stamp) dnsmasq[812]: \(serial) \(client) "
      let type = next() % 3 == 0 ? "AAAA" : "A"
      if next() % 4 == 0, !blocked.isEmpty {
        let name = blocked[next() % blocked.count]
        text += "\(prefix)query[\(type)] \(name) from \(client.prefix { $0 != "/" })\n"
        text += "\(prefix)config \(name) is NXDOMAIN\n"
        written += 2
      } else {
        let name = "host\(next() % 30_000).site\(next() % 97).website"
        text += "\(prefix)query[\(type)] \(name) from \(client.prefix { $0 != "/" })\n"
        text += "\(prefix)forwarded \(name) to 192.0.2.53#53\n"
        text += "\(prefix)reply \(name) is 198.51.100.\(next() % 250 + 1)\n"
        written += 3
      }
    }
    return text
  }
}

extension Benchmark {
  /// The same log's first 200,000 lines as entries of a real journal (written by systemd-journal-remote,
  /// which rotates to a new file as each fills: the files are named by a glob), read by `hits --log
  /// dnsmasq:journal --journal-file GLOB`, beside `journalctl -o json` alone on the same files.
  static func journalBenchmark(sanehosts: String, log: URL, work: URL, runs: Int, goals: Goals) {
    let remote = ["/lib/systemd/systemd-journal-remote", "/usr/lib/systemd/systemd-journal-remote"].first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
    guard let remote, let text = try? String(contentsOf: log, encoding: .utf8) else {
      print("  journal        skipped (no systemd-journal-remote: apt-get install systemd-journal-remote)")
      return
    }
    let journal = work.appending(path: "hits-200k.journal")
    if !FileManager.default.fileExists(atPath: journal.path) {
      let export = work.appending(path: "hits-200k.export")
      var out = ""
      let base = Int64(Date().timeIntervalSince1970 * 1_000_000) - 86_400_000_000
      for (index, line) in text.split(separator: "\n").prefix(200_000).enumerated() {
        guard let tag = line.range(of: "dnsmasq[812]: ") else { continue }
        out += "__REALTIME_TIMESTAMP=\(base + Int64(index) * 1000)\n__MONOTONIC_TIMESTAMP=\(1000 + index)\n"
        out += "_BOOT_ID=0123456789abcdef0123456789abcdef\nSYSLOG_IDENTIFIER=dnsmasq\n_PID=812\n"
        out += "MESSAGE=\(line[tag.upperBound...])\n\n"
      }
      try? Data(out.utf8).write(to: export)
      guard run([remote, "--output=\(journal.path)", export.path]).status == 0 else {
        print("  journal        skipped (systemd-journal-remote failed)")
        return
      }
      try? FileManager.default.removeItem(at: export)
    }
    let files = work.appending(path: "hits-200k*.journal").path
    let command = [sanehosts, "hits", "--log", "dnsmasq:journal", "--journal-file", files, "--json"]
    let measured = median((0..<runs).map { _ in run(command) })
    guard measured.status == 0 else { fail("hits on the journal exited \(measured.status)") }
    let alone = median(
      (0..<runs).map { _ in run(["journalctl", "--file", files, "--output=json", "--identifier=dnsmasq"]) })
    print(
      String(
        format:
          "  journal        %.2f s  peak %.0f MiB  (200,000 entries through journalctl; journalctl -o json alone %.2f s; median of %d)",
        measured.seconds, measured.peakMiB, alone.seconds, runs))
    goals.add(
      "200k journal entries attributed (hits): beyond journalctl's own", measured.seconds - alone.seconds, "s",
      atMost: 0.5)
  }
}

extension Benchmark {
  /// The same log with three allow rules in the profile (an exact name it blocks, a wildcard and a regular
  /// expression): `hits` then counts per list what each rule let through, against the profile compiled
  /// once more without them. The rules are removed afterwards.
  static func allowRulesBenchmark(sanehosts: String, log: URL, blocked: [Substring], runs: Int, goals: Goals) {
    guard let first = blocked.first else { return }
    let rules = ["=\(first)", "*.site3.website", "/^host2[0-9]*\\.site/"]
    _ = run([sanehosts, "allow", "add"] + rules)
    defer { _ = run([sanehosts, "allow", "remove"] + rules) }
    let measured = median((0..<runs).map { _ in run([sanehosts, "hits", "--log", "dnsmasq:\(log.path)", "--json"]) })
    guard measured.status == 0 else { fail("hits with allow rules exited \(measured.status)") }
    print(
      String(
        format:
          "  allow rules    %.2f s  peak %.0f MiB  (3 rules, each counted per list; median of %d; target ≤ 1.5 s)",
        measured.seconds, measured.peakMiB, runs))
    goals.add("1M log lines with 3 allow rules (hits): time", measured.seconds, "s", atMost: 1.5)
  }
}
