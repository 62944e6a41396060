/// The syntaxes a blocklist is read in (what `compile --input-format` and a source's format name); what
/// SaneHosts writes is an `OutputFormat`.
public enum InputFormat: String, Sendable, Hashable, CaseIterable, Codable {
  /// `0.0.0.0 ads.example` (also 127.0.0.1, ::, ::1; several names per line; inline `#` comments).
  case hosts
  /// One name per line: `ads.example`.
  case domains
  /// Adblock network rules; only `||ads.example^` is a DNS-level block.
  case adblock
  /// `*.ads.example`: the name and its subdomains.
  case wildcard
  /// `address=/ads.example/`, `local=/ads.example/`, `server=/ads.example/`.
  case dnsmasq
  /// `local-zone: "ads.example." always_null` and null `local-data`.
  case unbound
  /// A BIND response-policy zone: `ads.example CNAME .` and `*.ads.example CNAME .`.
  case rpz

  /// Whether a rule in this format also blocks every subdomain of its name.
  public var coversSubdomains: Bool {
    switch self {
    case .hosts, .domains: false
    case .adblock, .wildcard, .dnsmasq, .unbound, .rpz: true
    }
  }

  /// The format's position in `allCases`, for counting in arrays.
  var ordinal: Int {
    switch self {
    case .hosts: 0
    case .domains: 1
    case .adblock: 2
    case .wildcard: 3
    case .dnsmasq: 4
    case .unbound: 5
    case .rpz: 6
    }
  }
}

extension InputFormat {
  /// The format one line is written in, as the parser recognises it (`||x^` adblock, `0.0.0.0 x` hosts,
  /// …); nil for comments, blank and unsupported lines. For showing where a name came from in a mixed list.
  public static func of(line text: String) -> InputFormat? {
    var bytes = Array(text.utf8)
    while let last = bytes.last, last == 0x20 || last == 0x09 || last == 0x0D { bytes.removeLast() }
    while let first = bytes.first, first == 0x20 || first == 0x09 { bytes.removeFirst() }
    guard !bytes.isEmpty else { return nil }
    return bytes.withUnsafeBufferPointer { LineKind.of($0).format }
  }
}
