import Blocklists
import Foundation
import Traffic

/// dnsmasq, an `addn-hosts` file with `0.0.0.0 name` and `:: name`: exactly the names listed.
struct DnsmasqHosts: DropInServer {
  var name: String { "dnsmasq-hosts" }
  var server: String { "dnsmasq" }
  var program: String { "dnsmasq" }
  var queryLog: QueryLogFormat? { .dnsmasq }
  var label: String { "dnsmasq (addn-hosts)" }
  var summary: String {
    "an addn-hosts file with 0.0.0.0 and :: per name, exact names only; dnsmasq still forwards their other record types, HTTPS included"
  }
  var format: OutputFormat { .hosts }
  // Not in /etc/dnsmasq.d: Debian's dnsmasq reads every file there as configuration, and a hosts line
  // is a bad option there that stops dnsmasq from starting.
  var defaultOutput: String { "/etc/sanehosts/dnsmasq.hosts" }
  var checker: (tool: String, package: String) { ("dnsmasq", "dnsmasq-base") }
  var capabilities: Capabilities {
    Capabilities(subdomains: false, exceptions: false, everyRecordType: false, cnameTargets: false)
  }
  var leaks: [String] {
    [
      "record types other than A and AAAA (HTTPS and SVCB with their address hints, TXT, MX) are forwarded for the names of a hosts file; the dnsmasq target (server=/name/ lines) blocks every type.",
      "names under a listed name are not blocked (a hosts file blocks exact names), and \(ServerTarget.cnameLeak).",
    ]
  }

  func renderer(title: String, date: Date) -> Renderer {
    Renderer(format: format, hostsAddress: .both, title: title, date: date)
  }

  /// dnsmasq's `--test` checks the `addn-hosts` option, not the file: the file is checked to be readable.
  func check(_ path: String, runner: any ProcessRunning) async -> ConfigCheck {
    guard FileManager.default.isReadableFile(atPath: path) else {
      return .failed(tool: checker.tool, output: "cannot read \(path)")
    }
    return await runChecker(["--test", "--conf-file=/dev/null", "--no-hosts", "--addn-hosts=\(path)"], runner: runner)
  }

  func defaultReload(output: String) -> ReloadMethod { .systemd(unit: "dnsmasq") }

  func instructions(output: String) -> String { "addn-hosts=\(output)" }
}

extension ServerTarget {
  /// dnsmasq with an addn-hosts file (see `DnsmasqHosts`).
  public static let dnsmasqHosts = ServerTarget(DnsmasqHosts())
}
