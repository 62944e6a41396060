import Blocklists
import Foundation

/// PowerDNS Recursor, a response-policy zone loaded by `rpzFile` in a Lua file beside it.
struct PowerDNSRecursor: DropInServer {
  var name: String { "pdns-recursor" }
  var server: String { "PowerDNS Recursor" }
  var program: String { "pdns_recursor" }
  var label: String { "PowerDNS Recursor (RPZ)" }
  var summary: String {
    "the same response-policy zone, plus a Lua file beside it, NAME.lua, that loads it with rpzFile; --reload runs rec_control reload-lua-config and wipe-cache"
  }
  var format: OutputFormat { .rpz }
  var defaultOutput: String { "/etc/powerdns/sanehosts.rpz" }
  var checker: (tool: String, package: String) { ServerTarget.zoneChecker }
  var capabilities: Capabilities {
    Capabilities(subdomains: true, exceptions: true, everyRecordType: true, cnameTargets: true)
  }
  var reloadSocket: String? { "its socket-dir for rec_control" }

  func check(_ path: String, runner: any ProcessRunning) async -> ConfigCheck {
    await runChecker([ServerTarget.rpzZone, path], runner: runner)
  }

  func defaultReload(output: String) -> ReloadMethod { .recControl(socketDirectory: nil) }

  func reload(output: String, choice: ReloadChoice) -> ReloadMethod { .recControl(socketDirectory: choice.socket) }

  func refusal(of choice: ReloadChoice, output: String) -> String? {
    guard choice.pid != nil || choice.unit != nil else { return nil }
    return
      "PowerDNS Recursor stops on SIGHUP and its zone is not a unit's reload: it loads the zone again with rec_control reload-lua-config (--reload, and --reload-socket DIR for a socket-dir of its own)."
  }

  func instructions(output: String) -> String {
    "dofile(\(ServerTarget.luaString(ServerTarget.loaderPath(output: output))))  -- in the lua-config-file (e.g. /etc/powerdns/recursor.lua)"
  }

  func loader(output: String) -> (path: String, text: String)? {
    let path = ServerTarget.loaderPath(output: output)
    let text = """
      -- Written by SaneHosts: loads its response-policy zone. Include it from the recursor's Lua
      -- configuration (lua-config-file, e.g. /etc/powerdns/recursor.lua) with: dofile(\(ServerTarget.luaString(path)))
      rpzFile(\(ServerTarget.luaString(output)), {policyName="sanehosts"})

      """
    return (path, text)
  }
}

extension ServerTarget {
  /// PowerDNS Recursor with a response-policy zone (see `PowerDNSRecursor`).
  public static let pdnsRecursor = ServerTarget(PowerDNSRecursor())

  /// The Lua file that loads the zone at `output`, written beside it: the zone's name with `.lua` for `.rpz`.
  static func loaderPath(output: String) -> String {
    output.hasSuffix(".rpz") ? String(output.dropLast(4)) + ".lua" : output + ".lua"
  }

  /// `text` as a Lua string literal.
  static func luaString(_ text: String) -> String {
    let escaped = text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
      .replacingOccurrences(of: "\n", with: "\\n")
    return "\"\(escaped)\""
  }
}
