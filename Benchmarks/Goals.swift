import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The goals: each measured figure beside its goal, printed last by `sanehosts-bench`.
final class Goals {
  struct Row {
    var figure: String
    var measured: Double?
    var unit: String
    var goal: Double?
    /// Met at or above the goal (a rate), not at or below it (a time, a size).
    var atLeast = false
    var note: String
  }

  private(set) var rows: [Row] = []

  /// Records a figure: met when `measured` ≤ `goal`; either nil when it could not be had (`note` says why).
  func add(_ figure: String, _ measured: Double?, _ unit: String, atMost goal: Double?, note: String = "") {
    rows.append(Row(figure: figure, measured: measured, unit: unit, goal: goal, note: note))
  }

  /// Records a rate: met when `measured` ≥ `goal`.
  func add(_ figure: String, _ measured: Double?, _ unit: String, atLeast goal: Double, note: String = "") {
    rows.append(Row(figure: figure, measured: measured, unit: unit, goal: goal, atLeast: true, note: note))
  }

  /// The table: figure, measured, goal, whether it is met.
  var table: String {
    var text = "goals: each figure beside its goal\n"
    for row in rows {
      let measured = row.measured.map { String(format: "%.2f %@", $0, row.unit) } ?? "not measured"
      let verdict =
        row.measured.flatMap { measured in
          row.goal.map { (row.atLeast ? measured >= $0 : measured <= $0) ? "met" : "NOT MET" }
        } ?? "-"
      text += "  " + row.figure.padding(toLength: 46, withPad: " ", startingAt: 0)
      text += measured.padding(toLength: 14, withPad: " ", startingAt: 0)
      let goal = row.goal.map { String(format: "%@ %.2f %@", row.atLeast ? "≥" : "≤", $0, row.unit) } ?? "?"
      text += goal.padding(toLength: 16, withPad: " ", startingAt: 0)
      text += verdict + (row.note.isEmpty ? "" : "  (\(row.note))") + "\n"
    }
    return text
  }
}

extension Benchmark {
  /// The installed binary (stripped, as `scripts/install.sh` installs it): its size, and what `--version`
  /// and `--help` hold resident (the median of 7 runs each, the binary's pages already cached).
  static func startBenchmark(sanehosts: String, work: URL, goals: Goals) {
    let stripped = work.appending(path: "sanehosts.stripped").path
    guard run(["strip", "-o", stripped, sanehosts]).status == 0 else {
      goals.add("installed binary (stripped)", nil, "MB", atMost: 40, note: "strip failed")
      return
    }
    let bytes = (try? FileManager.default.attributesOfItem(atPath: stripped)[.size] as? Int) ?? 0
    goals.add("installed binary (stripped)", Double(bytes) / 1e6, "MB", atMost: 40)
    _ = run([stripped, "--version"])
    for arguments in [["--version"], ["--help"]] {
      let runs = (0..<7).map { _ in run([stripped] + arguments) }
      let peak = runs.map(\.peakMiB).sorted()[runs.count / 2]
      goals.add("resident at start (\(arguments[0]))", peak, "MiB", atMost: 15)
      print(String(format: "start: %@ %.1f ms, %.1f MiB resident", arguments[0], median(runs).seconds * 1000, peak))
    }
    print(String(format: "start: the installed (stripped) binary is %.1f MB", Double(bytes) / 1e6))
  }

  /// The 10 real lists of `../shared` the update and small-compile benchmarks use.
  static let tenLists = [
    "stevenblack.domains.txt", "adguarddns.hosts.txt", "easylist.hosts.txt", "someonewhocares.hosts.txt",
    "anudeep-adservers.hosts.txt", "hagezi-personal.hosts.txt", "hagezi-light.wildcard.txt",
    "ultimatehosts.adblock.txt", "easylist.dnsmasq.txt", "easylist.unbound.conf",
  ]

  /// What every compile pays once, seen where it weighs most: a one-line list (the median of 21 runs,
  /// beside `--version`'s, which parses no list), and the 10 real lists (the median of 7).
  static func smallCompileBenchmark(sanehosts: String, lists: URL, work: URL, goals: Goals) {
    let one = work.appending(path: "one-line.txt")
    try? Data("ads.website\n".utf8).write(to: one)
    let output = work.appending(path: "small.out").path
    _ = run([sanehosts, "compile", "--quiet", "-o", output, one.path])
    let version = median((0..<21).map { _ in run([sanehosts, "--version"]) }).seconds * 1000
    let oneLine = median((0..<21).map { _ in run([sanehosts, "compile", "--quiet", "-o", output, one.path]) })
    let files = tenLists.map { lists.appending(path: $0).path }
    let ten = median((0..<7).map { _ in run([sanehosts, "compile", "--quiet", "-o", output] + files) })
    goals.add("compile of a one-line list", oneLine.seconds * 1000, "ms", atMost: 20)
    print(
      String(
        format: "compile: a one-line list %.1f ms (--version %.1f ms), the 10 real lists %.3f s, %.0f MiB peak",
        oneLine.seconds * 1000, version, ten.seconds, ten.peakMiB))
  }

  /// hBlock (github.com/hectorm/hblock, a POSIX shell script) on the same 10 sources from the same HTTP
  /// server: its time and the peak of its largest process (sort, awk), the median of 3 runs; nil without it.
  static func hblockRun(_ hblock: String?, port: Int, files: [String], work: URL) -> Measurement? {
    guard let hblock else { return nil }
    let sources = work.appending(path: "hblock-sources.txt")
    try? Data(files.map { "http://127.0.0.1:\(port)/\($0)\n" }.joined().utf8).write(to: sources)
    let output = work.appending(path: "hblock.out").path
    let runs = (0..<3).map { _ in
      runTree(
        [
          "/bin/sh", hblock, "-O", output, "-H", "builtin", "-F", "builtin", "-S", sources.path, "-A", "none", "-D",
          "none", "-q",
        ])
    }
    guard runs.allSatisfy({ $0.status == 0 }) else { fail("hblock exited \(runs.map(\.status))") }
    return median(runs)
  }

  /// Runs a command that starts others (a shell script): wall time, exit status, and the peak resident
  /// memory of the largest process of its tree (each one's `VmHWM`, sampled every 2 ms).
  static func runTree(_ command: [String]) -> Measurement {
    let start = ContinuousClock.now
    let pid = spawn(command, silenceErrors: true)
    var status: Int32 = 0
    var peakKiB = 0
    var tree: Set<pid_t> = [pid]
    while waitpid(pid, &status, WNOHANG) == 0 {
      for (process, parent) in processes() where tree.contains(parent) { tree.insert(process) }
      for process in tree { peakKiB = max(peakKiB, highWaterMarkKiB(of: process) ?? 0) }
      usleep(2000)
    }
    return Measurement(seconds: seconds(since: start), peakMiB: Double(peakKiB) / 1024, status: (status >> 8) & 0xFF)
  }

  /// Every process and its parent, from /proc.
  static func processes() -> [(pid_t, pid_t)] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap { entry in
      guard let process = pid_t(entry),
        let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
      else { return nil }
      // After the command's name in parentheses: the state, then the parent's id.
      let fields = stat[stat.index(after: close)...].split(separator: " ")
      guard fields.count > 1, let parent = pid_t(fields[1]) else { return nil }
      return (process, parent)
    }
  }

  /// The hBlock script: `--hblock PATH`, else `$HBLOCK`, else `hblock` on PATH; nil when none is found.
  static func findHblock(_ given: String?) -> String? {
    if let given { return given }
    if let environment = ProcessInfo.processInfo.environment["HBLOCK"] { return environment }
    for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
      let candidate = "\(directory)/hblock"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }
}
