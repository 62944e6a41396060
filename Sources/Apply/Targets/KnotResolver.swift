import Blocklists
import Foundation

/// Knot Resolver 5, a response-policy zone loaded by `policy.rpz` in a Lua file beside it (it watches the
/// zone and loads it again when it changes).
struct KnotResolver: DropInServer {
  var name: String { "knot-resolver" }
  var server: String { "Knot Resolver" }
  var program: String { "kresd" }
  var label: String { "Knot Resolver (RPZ)" }
  var summary: String {
    "the same response-policy zone, plus a Lua file beside it, NAME.lua, that loads it with policy.rpz (Knot Resolver 5); --reload goes through its control socket"
  }
  var format: OutputFormat { .rpz }
  var defaultOutput: String { "/etc/knot-resolver/sanehosts.rpz" }
  var checker: (tool: String, package: String) { ServerTarget.zoneChecker }
  var capabilities: Capabilities {
    Capabilities(subdomains: true, exceptions: true, everyRecordType: true, cnameTargets: false)
  }
  var leaks: [String] { ["\(ServerTarget.cnameLeak): Knot Resolver's policy.rpz matches only the name asked."] }
  var reloadSocket: String? { "its control socket (default \(ServerTarget.knotControlSocket))" }

  func check(_ path: String, runner: any ProcessRunning) async -> ConfigCheck {
    await runChecker([ServerTarget.rpzZone, path], runner: runner)
  }

  func defaultReload(output: String) -> ReloadMethod {
    .knotControl(socket: ServerTarget.knotControlSocket, zone: output)
  }

  /// Through the control socket, with the zone's absolute path (kresd's working folder is its own).
  func reload(output: String, choice: ReloadChoice) -> ReloadMethod {
    let absolute = output.hasPrefix("/") ? output : FileManager.default.currentDirectoryPath + "/" + output
    return .knotControl(socket: choice.socket ?? ServerTarget.knotControlSocket, zone: absolute)
  }

  func refusal(of choice: ReloadChoice, output: String) -> String? {
    guard choice.pid != nil || choice.unit != nil else { return nil }
    return
      "Knot Resolver stops on SIGHUP and its zone is not a unit's reload: it is reloaded through its control socket (--reload-socket RUNDIR/control/PID)."
  }

  func instructions(output: String) -> String {
    "dofile(\(ServerTarget.luaString(ServerTarget.loaderPath(output: output))))  -- in kresd.conf (e.g. /etc/knot-resolver/kresd.conf)"
  }

  func loader(output: String) -> (path: String, text: String)? {
    let path = ServerTarget.loaderPath(output: output)
    let text = """
      -- Written by SaneHosts: loads its response-policy zone, and again whenever the file changes.
      -- Include it from kresd.conf with: dofile(\(ServerTarget.luaString(path))), before any policy.FORWARD rule.
      -- An allowed name (rpz-passthru.) goes on to the next rule instead of ending the policy chain.
      sanehosts_zone = policy.rpz(policy.DENY, \(ServerTarget.luaString(output)), true)
      sanehosts_rpz = policy.add(\(ServerTarget.knotFilter))

      """
    return (path, text)
  }
}

extension ServerTarget {
  /// Knot Resolver 5 with a response-policy zone (see `KnotResolver`).
  public static let knotResolver = ServerTarget(KnotResolver())

  /// The control socket of Debian's `kresd@1` service.
  public static let knotControlSocket = "/run/knot-resolver/control/1"

  /// The Lua function that Knot Resolver runs for each query: the zone's rule, except that a pass-through
  /// (`rpz-passthru.`, an allow rule's exception) goes on to the next policy rule. kresd's own PASS ends
  /// the policy chain, so the usual `policy.FORWARD` after the loader never ran and the allowed name was
  /// resolved from the root (or, offline, not at all).
  static let knotFilter =
    "function(state, query) local action = sanehosts_zone(state, query) if action == policy.PASS then return nil end return action end"
}
