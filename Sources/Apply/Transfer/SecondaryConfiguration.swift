import DNS

/// What a secondary adds to its own configuration to copy the fleet's response-policy zone from the
/// primary by zone transfer and block with it: BIND, unbound or PowerDNS Recursor, in each one's syntax.
public struct SecondaryConfiguration: Sendable, Hashable {
  /// The kinds that take a response-policy zone by transfer (Knot Resolver takes one only from a file).
  public enum Kind: String, Sendable, Hashable, CaseIterable, Codable {
    /// BIND 9: `type secondary` and `response-policy`.
    case bind
    /// unbound: an `rpz:` clause with `primary:`.
    case unbound
    /// PowerDNS Recursor: `rpzPrimary` in its Lua configuration.
    case pdnsRecursor = "pdns-recursor"
  }

  /// The secondary's kind.
  public var kind: Kind
  /// Where the primary answers transfers.
  public var primary: ServerAddress
  /// The key transfers are signed with, or nil when the primary allows the secondary by its address.
  public var key: TransactionKey?
  /// Where the secondary keeps its copy of the zone across restarts (BIND and unbound).
  public var copyFile: String

  /// A secondary of `kind` copying from `primary`.
  public init(kind: Kind, primary: ServerAddress, key: TransactionKey? = nil, copyFile: String? = nil) {
    self.kind = kind
    self.primary = primary
    self.key = key
    self.copyFile = copyFile ?? kind.defaultCopyFile
  }

  /// Why this secondary cannot be configured so, or nil: unbound 1.17 (Debian 12's) signs no transfer.
  public var refusal: String? {
    guard kind == .unbound, key != nil else { return nil }
    return
      "unbound 1.17 (Debian 12's) cannot sign a zone transfer with TSIG: let the primary allow this secondary by its address (apply --transfer-to without --tsig)."
  }

  /// The configuration text, with a comment saying where it goes.
  public var text: String {
    switch kind {
    case .bind: bindText
    case .unbound: unboundText
    case .pdnsRecursor: recursorText
    }
  }

  private var zone: String { PrimaryZone.zone }

  private var bindText: String {
    let keyClause = key.map { " key \"\($0.name)\"" } ?? ""
    return """
      // Written by SaneHosts: a secondary of \(zone) from \(primary). Include it from named.conf, and add
      //   response-policy { zone "\(zone)" min-update-interval 0; };
      // to the options { } block (without min-update-interval 0, BIND applies a change to a policy zone
      // at most once a minute).
      \(key?.statement ?? "")zone "\(zone)" {
        type secondary;
        primaries { \(primary.ip) port \(primary.port)\(keyClause); };
        file "\(copyFile)";
      };

      """
  }

  private var unboundText: String {
    """
    # Written by SaneHosts: a secondary of \(zone) from \(primary). Include it from unbound.conf. RPZ needs
    # the respip module: module-config: "respip validator iterator" in the server: clause.
    rpz:
      name: "\(zone)"
      primary: \(primary.ip)@\(primary.port)
      allow-notify: \(primary.ip)
      zonefile: "\(copyFile)"
      rpz-log: yes
      rpz-log-name: "sanehosts"

    """
  }

  private var recursorText: String {
    // 4.8 does not act on a NOTIFY for a policy zone (seen here: no transfer within 30 s of one); it asks
    // the primary for the zone's serial every `refresh` seconds instead: one SOA query a second.
    var options = ["policyName=\"sanehosts\"", "refresh=1"]
    if let key {
      options += [
        "tsigname=\(ServerTarget.luaString(key.name))", "tsigalgo=\"\(TransactionKey.algorithm)\"",
        "tsigsecret=\(ServerTarget.luaString(key.secretText))",
      ]
    }
    return """
      -- Written by SaneHosts: a secondary of \(zone) from \(primary). Include it from the recursor's
      -- lua-config-file with dofile(). Recursor 4.8 takes no NOTIFY for it: it asks the primary's serial
      -- every second (refresh=1) and fetches a change by IXFR. Its packet cache keeps answers given before
      -- a change for their TTL (rec_control wipe-cache NAME$ clears one).
      rpzPrimary(\(ServerTarget.luaString("\(primary.ip):\(primary.port)")), \(ServerTarget.luaString(zone)), {\(options.joined(separator: ", "))})

      """
  }
}

extension SecondaryConfiguration.Kind {
  /// Where the server's copy of the zone goes by default, a folder its Debian package lets it write.
  public var defaultCopyFile: String {
    switch self {
    case .bind: "/var/cache/bind/sanehosts.rpz.secondary"
    case .unbound: "/var/lib/unbound/sanehosts.rpz"
    case .pdnsRecursor: ""
    }
  }
}
