/// The formats SaneHosts writes (`compile --format`, the drop-ins, subscription lists): each with its
/// comment syntax, whether a line blocks subdomains, and what it can say of exceptions and of
/// subdomains-only blocks. What is read is a `InputFormat`.
///
/// - `hosts`: `0.0.0.0 name` lines (or `::`, both, or one address given): exact names.
/// - `domains`: one name per line: exact names.
/// - `adblock`: `||name^`, the name and its subdomains; `@@||name^` exceptions.
/// - `wildcard`: `*.name`, the name and its subdomains; no exceptions.
/// - `dnsmasq`: `server=/name/…/` lines, NXDOMAIN for the names and their subdomains; `server=/name/#`
///   exceptions.
/// - `unbound`: `local-zone: "name." always_null`, the names and their subdomains; transparent zones for
///   exceptions.
/// - `rpz`: a response-policy zone, `name CNAME .` and `*.name CNAME .`; `rpz-passthru.` for exceptions.
public enum OutputFormat: String, Sendable, Hashable, CaseIterable, Codable {
  case hosts, domains, adblock, wildcard, dnsmasq, unbound, rpz

  /// Whether a line in this format also blocks every subdomain of its name.
  public var coversSubdomains: Bool { InputFormat(self).coversSubdomains }

  /// The prefix of a comment line in this format.
  public var commentPrefix: String {
    switch self {
    case .adblock: "!"
    case .rpz: ";"
    case .hosts, .domains, .wildcard, .dnsmasq, .unbound: "#"
    }
  }
}

extension InputFormat {
  /// The format a file written as `output` is read back in: every output is a list SaneHosts reads.
  public init(_ output: OutputFormat) {
    switch output {
    case .hosts: self = .hosts
    case .domains: self = .domains
    case .adblock: self = .adblock
    case .wildcard: self = .wildcard
    case .dnsmasq: self = .dnsmasq
    case .unbound: self = .unbound
    case .rpz: self = .rpz
    }
  }
}
