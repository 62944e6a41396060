import Blocklists
import Foundation

/// A local DNS server that loads SaneHosts' list as a drop-in file, and the format that file is in.
public enum ServerTarget: String, CaseIterable, Sendable, Codable {
  /// dnsmasq, a `servers-file` of `server=/name/…/` lines: the name and its subdomains answer NXDOMAIN for
  /// every record type (never forwarded), with `server=/name/#` exceptions for allow rules; SIGHUP reads
  /// it again.
  case dnsmasq
  /// dnsmasq, an `addn-hosts` file with `0.0.0.0 name` and `:: name`: exactly the names listed.
  case dnsmasqHosts = "dnsmasq-hosts"
  /// Unbound, `server:` then `local-zone: "name." always_null`: the name and its subdomains.
  case unbound
  /// BIND, a response-policy zone: `name CNAME .` and `*.name CNAME .` (NXDOMAIN for both).
  case bind
  /// PowerDNS Recursor, the same response-policy zone, loaded by `rpzFile` in a Lua file beside it.
  case pdnsRecursor = "pdns-recursor"
  /// Knot Resolver 5, the same response-policy zone, loaded by `policy.rpz` in a Lua file beside it (it
  /// watches the zone and loads it again when it changes).
  case knotResolver = "knot-resolver"

  /// Where the dnsmasq drop-in went before it became a servers-file (`address=/name/#` lines, which
  /// leaked HTTPS records): `apply` names it while it is still there.
  public static let formerDnsmasqOutput = "/etc/dnsmasq.d/sanehosts.conf"

  /// The version of the drop-ins' shape, part of the ledger's content key: a drop-in written by an older
  /// shape is written again though the profile did not change (2: `server=/…/` lines for dnsmasq, and
  /// exceptions for allow rules under a blocked parent).
  public static let dropInVersion = 2

  /// What the server still answers for a blocked name with this drop-in, checked against the real
  /// servers (`SemanticsMatrixTests`); `apply` says each.
  public var leaks: [String] {
    let cname = "a name whose CNAME leads to a blocked name (CNAME cloaking) is answered with the real address"
    switch self {
    case .dnsmasq:
      return [
        "\(cname): dnsmasq matches only the name asked, and once such a chain is cached it answers the blocked name itself from its cache until the record's TTL ends."
      ]
    case .dnsmasqHosts:
      return [
        "record types other than A and AAAA (HTTPS and SVCB with their address hints, TXT, MX) are forwarded for the names of a hosts file; the dnsmasq target (server=/name/ lines) blocks every type.",
        "names under a listed name are not blocked (a hosts file blocks exact names), and \(cname).",
      ]
    case .unbound:
      return [
        "\(cname): unbound's local zones match only the name asked; an exact allow rule (=name) under a blocked parent is a transparent zone, which lets the name's unlisted subdomains through too."
      ]
    case .knotResolver:
      return ["\(cname): Knot Resolver's policy.rpz matches only the name asked."]
    case .bind, .pdnsRecursor:
      return []
    }
  }

  /// The server program, for messages.
  public var server: String {
    switch self {
    case .dnsmasq, .dnsmasqHosts: "dnsmasq"
    case .unbound: "unbound"
    case .bind: "BIND"
    case .pdnsRecursor: "PowerDNS Recursor"
    case .knotResolver: "Knot Resolver"
    }
  }

  /// Whether the drop-in is a response-policy zone.
  public var isRPZ: Bool { [.bind, .pdnsRecursor, .knotResolver].contains(self) }

  /// How long `--verify` asks again for names not yet as applied after a reload: BIND loads a zone
  /// again in the background after `rndc reload` or SIGHUP (the first answers after it are the old
  /// zone's; found on the real `named`), and the others may still be finishing a large file.
  public var settleAfterReload: Duration { self == .bind ? .seconds(10) : .seconds(2) }

  /// The Lua file that makes the server load the zone at `output` (PowerDNS Recursor and Knot Resolver),
  /// written beside it: the zone's name with `.lua` for `.rpz`.
  public func loaderPath(output: String) -> String? {
    guard self == .pdnsRecursor || self == .knotResolver else { return nil }
    return output.hasSuffix(".rpz") ? String(output.dropLast(4)) + ".lua" : output + ".lua"
  }

  /// Whether a dnsmasq drop-in at `output` is read as configuration (a file of `/etc/dnsmasq.d`, which
  /// Debian's dnsmasq reads with `conf-dir`): dnsmasq then reads it again only when it restarts. Anywhere
  /// else it is loaded as the `servers-file`, which SIGHUP reads again.
  public static func isDnsmasqConfiguration(_ output: String) -> Bool {
    output.hasPrefix("/etc/dnsmasq.d/")
  }

  /// The Lua function that Knot Resolver runs for each query: the zone's rule, except that a pass-through
  /// (`rpz-passthru.`, an allow rule's exception) goes on to the next policy rule. kresd's own PASS ends
  /// the policy chain, so the usual `policy.FORWARD` after the loader never ran and the allowed name was
  /// resolved from the root (or, offline, not at all).
  static let knotFilter =
    "function(state, query) local action = sanehosts_zone(state, query) if action == policy.PASS then return nil end return action end"

  /// The loader file's text for the zone at `output` (an absolute path), or nil for a target without one.
  public func loader(output: String) -> String? {
    guard let path = loaderPath(output: output) else { return nil }
    let zone = Self.luaString(output)
    switch self {
    case .pdnsRecursor:
      return """
        -- Written by SaneHosts: loads its response-policy zone. Include it from the recursor's Lua
        -- configuration (lua-config-file, e.g. /etc/powerdns/recursor.lua) with: dofile(\(Self.luaString(path)))
        rpzFile(\(zone), {policyName="sanehosts"})

        """
    default:
      return """
        -- Written by SaneHosts: loads its response-policy zone, and again whenever the file changes.
        -- Include it from kresd.conf with: dofile(\(Self.luaString(path))), before any policy.FORWARD rule.
        -- An allowed name (rpz-passthru.) goes on to the next rule instead of ending the policy chain.
        sanehosts_zone = policy.rpz(policy.DENY, \(zone), true)
        sanehosts_rpz = policy.add(\(Self.knotFilter))

        """
    }
  }

  /// `text` as a Lua string literal.
  static func luaString(_ text: String) -> String {
    let escaped = text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
      .replacingOccurrences(of: "\n", with: "\\n")
    return "\"\(escaped)\""
  }

  /// Where the drop-in goes unless the user chooses otherwise.
  public var defaultOutput: String {
    switch self {
    // A servers-file, not in /etc/dnsmasq.d: dnsmasq reads a servers-file again on SIGHUP, and a
    // configuration file only when it restarts.
    case .dnsmasq: "/etc/sanehosts/dnsmasq.servers"
    // Not in /etc/dnsmasq.d: Debian's dnsmasq reads every file there as configuration, and a hosts line
    // is a bad option there that stops dnsmasq from starting.
    case .dnsmasqHosts: "/etc/sanehosts/dnsmasq.hosts"
    case .unbound: "/etc/unbound/unbound.conf.d/sanehosts.conf"
    case .bind: "/var/lib/bind/db.sanehosts.rpz"
    case .pdnsRecursor: "/etc/powerdns/sanehosts.rpz"
    case .knotResolver: "/etc/knot-resolver/sanehosts.rpz"
    }
  }

  /// Whether a line of a rendered drop-in changes on every render though the entries do not (the RPZ
  /// zone's SOA line carries a serial made from the date); such lines alone are no reason to write.
  public static func isVolatile(_ line: String) -> Bool { line.hasPrefix("@ IN SOA ") }

  /// Whether a line given as bytes is volatile (see `isVolatile(_:)` for text).
  public static func isVolatile(bytes line: UnsafeBufferPointer<UInt8>) -> Bool { line.starts(with: soaPrefix) }

  private static let soaPrefix = Array("@ IN SOA ".utf8)

  /// The name of the response-policy zone the BIND target writes.
  public static let rpzZone = Renderer.rpzOrigin

  /// The format of this target's file.
  public var format: ListFormat {
    switch self {
    case .dnsmasq: .dnsmasq
    case .dnsmasqHosts: .hosts
    case .unbound: .unbound
    case .bind, .pdnsRecursor, .knotResolver: .rpz
    }
  }

  /// The renderer that writes this target's file.
  public func renderer(title: String, date: Date) -> Renderer {
    switch self {
    // Many names an `address=` line: dnsmasq reads the file about three times faster.
    case .dnsmasq: Renderer(format: format, namesPerLine: .max, title: title, date: date)
    case .dnsmasqHosts: Renderer(format: format, hostsAddress: .both, title: title, date: date)
    default: Renderer(format: format, title: title, date: date)
    }
  }

  /// The drop-in file's bytes for `list`.
  public func render(_ list: CompiledList, title: String, date: Date) async throws -> [UInt8] {
    var sink = ByteSink()
    try await renderer(title: title, date: date).renderConcurrently(list, to: &sink)
    return sink.memory
  }

  /// The configuration lines a user adds to the server's own configuration so it loads the drop-in at
  /// `output` (Debian's packages already read `/etc/dnsmasq.d` and `/etc/unbound/unbound.conf.d`).
  public func instructions(output: String) -> String {
    switch self {
    case .dnsmasq:
      Self.isDnsmasqConfiguration(output)
        ? "conf-dir=/etc/dnsmasq.d/,*.conf  (dnsmasq reads it again only when it restarts; servers-file=PATH with a file elsewhere is read again on SIGHUP)"
        : "servers-file=\(output)  (one servers-file per dnsmasq; it is read again on SIGHUP)"
    case .dnsmasqHosts:
      "addn-hosts=\(output)"
    case .unbound:
      "include: \"\(output)\""
    case .bind:
      """
      response-policy { zone "\(Self.rpzZone)"; };  // inside the options { } block
      zone "\(Self.rpzZone)" { type master; file "\(output)"; };
      """
    case .pdnsRecursor:
      "dofile(\(Self.luaString(loaderPath(output: output) ?? output)))  -- in the lua-config-file (e.g. /etc/powerdns/recursor.lua)"
    case .knotResolver:
      "dofile(\(Self.luaString(loaderPath(output: output) ?? output)))  -- in kresd.conf (e.g. /etc/knot-resolver/kresd.conf)"
    }

  }
}
