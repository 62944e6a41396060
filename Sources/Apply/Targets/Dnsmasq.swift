import Blocklists
import Foundation
import Traffic

/// dnsmasq, a `servers-file` of `server=/name/…/` lines: the name and its subdomains answer NXDOMAIN for
/// every record type (never forwarded), with `server=/name/#` exceptions for allow rules; SIGHUP reads it
/// again.
struct Dnsmasq: DropInServer {
  var name: String { "dnsmasq" }
  var server: String { "dnsmasq" }
  var program: String { "dnsmasq" }
  var queryLog: QueryLogFormat? { .dnsmasq }
  var label: String { "dnsmasq (server=)" }
  var summary: String {
    "a servers-file of server=/name/…/ lines of up to 1,000 bytes: NXDOMAIN for the names and their subdomains, every record type; SIGHUP reads it again"
  }
  var format: OutputFormat { .dnsmasq }
  // A servers-file, not in /etc/dnsmasq.d: dnsmasq reads a servers-file again on SIGHUP, and a
  // configuration file only when it restarts.
  var defaultOutput: String { "/etc/sanehosts/dnsmasq.servers" }
  var checker: (tool: String, package: String) { ("dnsmasq", "dnsmasq-base") }
  var capabilities: Capabilities {
    Capabilities(subdomains: true, exceptions: true, everyRecordType: true, cnameTargets: false)
  }
  var leaks: [String] {
    [
      "\(ServerTarget.cnameLeak): dnsmasq matches only the name asked, and once such a chain is cached it answers the blocked name itself from its cache until the record's TTL ends."
    ]
  }
  /// Where the drop-in went before it became a servers-file (`address=/name/#` lines, which leaked HTTPS
  /// records).
  var formerOutput: String? { "/etc/dnsmasq.d/sanehosts.conf" }

  /// Many names an `address=` line: dnsmasq reads the file about three times faster.
  func renderer(title: String, date: Date) -> Renderer {
    Renderer(format: format, namesPerLine: .max, title: title, date: date)
  }

  /// dnsmasq's `--test` checks configuration files only (not a servers-file), so the drop-in is checked as
  /// `--conf-file`, which replaces /etc/dnsmasq.conf: only our file is checked.
  func check(_ path: String, runner: any ProcessRunning) async -> ConfigCheck {
    await runChecker(["--test", "--conf-file=\(path)"], runner: runner)
  }

  /// dnsmasq reads its `servers-file` again on a reload (SIGHUP), but not its configuration files: a
  /// drop-in in `/etc/dnsmasq.d` needs a restart.
  func defaultReload(output: String) -> ReloadMethod {
    Self.isConfiguration(output) ? .systemdRestart(unit: "dnsmasq") : .systemd(unit: "dnsmasq")
  }

  func reload(output: String, choice: ReloadChoice) -> ReloadMethod {
    if let unit = choice.unit, choice.pid == nil {
      return Self.isConfiguration(output) ? .systemdRestart(unit: unit) : .systemd(unit: unit)
    }
    if let pid = choice.pid { return .signal(pid: pid, program: program) }
    return defaultReload(output: output)
  }

  func refusal(of choice: ReloadChoice, output: String) -> String? {
    guard choice.pid != nil, Self.isConfiguration(output) else { return nil }
    return
      "dnsmasq does not read a configuration file (\(output), in /etc/dnsmasq.d) again on SIGHUP, only when it restarts: use --reload alone (systemctl restart dnsmasq), or write the drop-in elsewhere and load it as dnsmasq's servers-file=, which SIGHUP reads again."
  }

  func instructions(output: String) -> String {
    Self.isConfiguration(output)
      ? "conf-dir=/etc/dnsmasq.d/,*.conf  (dnsmasq reads it again only when it restarts; servers-file=PATH with a file elsewhere is read again on SIGHUP)"
      : "servers-file=\(output)  (one servers-file per dnsmasq; it is read again on SIGHUP)"
  }

  /// Whether a drop-in at `output` is read as configuration (a file of `/etc/dnsmasq.d`, which Debian's
  /// dnsmasq reads with `conf-dir`): dnsmasq then reads it again only when it restarts. Anywhere else it
  /// is loaded as the `servers-file`, which SIGHUP reads again.
  static func isConfiguration(_ output: String) -> Bool { output.hasPrefix("/etc/dnsmasq.d/") }
}

extension ServerTarget {
  /// dnsmasq with a servers-file (see `Dnsmasq`).
  public static let dnsmasq = ServerTarget(Dnsmasq())
}
