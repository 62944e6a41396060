import Blocklists
import Foundation
import Traffic

/// BIND, a response-policy zone: `name CNAME .` and `*.name CNAME .` (NXDOMAIN for both).
struct Bind: DropInServer {
  var name: String { "bind" }
  var server: String { "BIND" }
  var program: String { "named" }
  var queryLog: QueryLogFormat? { .bind }
  var label: String { "BIND (RPZ)" }
  var summary: String {
    "a response-policy zone: the names and their subdomains, every record type and names whose CNAME leads to them"
  }
  var format: OutputFormat { .rpz }
  var defaultOutput: String { "/var/lib/bind/db.sanehosts.rpz" }
  var checker: (tool: String, package: String) { ServerTarget.zoneChecker }
  var capabilities: Capabilities {
    Capabilities(subdomains: true, exceptions: true, everyRecordType: true, cnameTargets: true)
  }
  /// BIND loads a zone again in the background after `rndc reload` or SIGHUP: the first answers after it
  /// are the old zone's (found on the real `named`).
  var settleAfterReload: Duration { .seconds(10) }

  func check(_ path: String, runner: any ProcessRunning) async -> ConfigCheck {
    await runChecker([ServerTarget.rpzZone, path], runner: runner)
  }

  /// rndc first (the zone alone), else the service's reload (Debian's unit is `named`).
  func defaultReload(output: String) -> ReloadMethod {
    .firstOf([.rndc(zone: ServerTarget.rpzZone), .systemd(unit: "named")])
  }

  func instructions(output: String) -> String {
    """
    response-policy { zone "\(ServerTarget.rpzZone)"; };  // inside the options { } block
    zone "\(ServerTarget.rpzZone)" { type master; file "\(output)"; };
    """
  }
}

extension ServerTarget {
  /// BIND with a response-policy zone (see `Bind`).
  public static let bind = ServerTarget(Bind())

  /// PowerDNS Recursor and Knot Resolver have no checker for a zone; BIND's checks the same RPZ file (a
  /// zone the recursor cannot parse is dropped whole on reload, turning blocking off).
  static let zoneChecker = (tool: "named-checkzone", package: "bind9-utils")
}
