import Blocklists
import Foundation

/// A local DNS server that loads SaneHosts' list as a drop-in file, and the format that file is in.
public enum ServerTarget: String, CaseIterable, Sendable, Codable {
  /// dnsmasq, a `conf-file` of `address=/name/#` lines: the name and its subdomains answer 0.0.0.0 and ::.
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

  /// The Lua file that makes the server load the zone at `output` (PowerDNS Recursor and Knot Resolver),
  /// written beside it: the zone's name with `.lua` for `.rpz`.
  public func loaderPath(output: String) -> String? {
    guard self == .pdnsRecursor || self == .knotResolver else { return nil }
    return output.hasSuffix(".rpz") ? String(output.dropLast(4)) + ".lua" : output + ".lua"
  }

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
        -- Include it from kresd.conf with: dofile(\(Self.luaString(path)))
        sanehosts_rpz = policy.add(policy.rpz(policy.DENY, \(zone), true))

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
    case .dnsmasq: "/etc/dnsmasq.d/sanehosts.conf"
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

  /// The renderer that writes this target's file.
  public func renderer(title: String, date: Date) -> Renderer {
    switch self {
    // Many names an `address=` line: dnsmasq reads the file about three times faster.
    case .dnsmasq: Renderer(format: .dnsmasq, namesPerLine: .max, title: title, date: date)
    case .dnsmasqHosts: Renderer(format: .hosts, hostsAddress: .both, title: title, date: date)
    case .unbound: Renderer(format: .unbound, title: title, date: date)
    case .bind, .pdnsRecursor, .knotResolver: Renderer(format: .rpz, title: title, date: date)
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
      output.hasPrefix("/etc/dnsmasq.d/") && output.hasSuffix(".conf") && !output.dropFirst(15).contains("/")
        ? "conf-dir=/etc/dnsmasq.d/,*.conf" : "conf-file=\(output)"
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
