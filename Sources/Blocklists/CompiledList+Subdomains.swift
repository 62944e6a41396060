import Foundation

extension CompiledList {
  /// What one format does with the subdomains-only deny rules (`*.name`, a list's `||*.name^`).
  public struct SubdomainBlocks: Sendable, Hashable {
    /// Names whose subdomains the format blocks with lines of their own (adblock `||*.name^`, dnsmasq
    /// `server=/*.name/`, RPZ `*.name CNAME .`), in rule order.
    public var written: [String] = []
    /// Names the format cannot block "subdomains only" (hosts, domains, wildcard, unbound): left out,
    /// never widened to block the name itself.
    public var unexpressed: [String] = []
    /// Public suffixes (and RPZ names too long for the zone) left out: their subdomains are other people's
    /// sites (`||*.co.uk^` would block every one of them).
    public var leftOut: [String] = []
  }

  /// Whether a format can block a name's subdomains without the name itself.
  public static func canBlockSubdomainsOnly(_ format: OutputFormat) -> Bool {
    format == .adblock || format == .dnsmasq || format == .rpz
  }

  /// The subdomains-only deny rules as `format` writes them. A rule is skipped when an allow rule lets
  /// every subdomain through, or when the name or a parent is written as an entry (which blocks the
  /// subdomains already).
  public func subdomainBlocks(for format: OutputFormat, publicSuffixes: PublicSuffixList = .bundled)
    -> SubdomainBlocks
  {
    var result = SubdomainBlocks()
    var seen = Set<String>()
    for rule in rules.subdomainDenials where seen.insert(rule.pattern).inserted {
      let name = rule.pattern
      if rules.allowsEverySubdomain(of: name) { continue }
      if publicSuffixes.isPublicSuffix(name) || (format == .rpz && name.utf8.count > Renderer.rpzNameLimit) {
        result.leftOut.append(name)
        continue
      }
      let written = { (candidate: String) in self.isWritten(candidate, format: format, publicSuffixes: publicSuffixes) }
      if format.coversSubdomains, written(name) || NameRules.parents(of: name).contains(where: written) { continue }
      if Self.canBlockSubdomainsOnly(format) { result.written.append(name) } else { result.unexpressed.append(name) }
    }
    return result
  }
}
