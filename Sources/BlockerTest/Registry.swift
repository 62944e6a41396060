import Blocklists
import Foundation
import Store

/// The domains a blocker test probes: the curated registry shipped with SaneHosts, the user's own
/// additions, and the control domains.
public struct Registry: Sendable, Hashable {
  /// Every domain, controls included, in registry order (built-in first, then custom).
  public var domains: [TestDomain]

  /// Creates a registry from domains (the first of any repeated hostname wins).
  public init(_ domains: [TestDomain]) {
    var seen = Set<String>()
    self.domains = domains.filter { seen.insert($0.hostname).inserted }
  }

  /// The domains that are probed for the score.
  public var tested: [TestDomain] { domains.filter { !$0.isControl } }
  /// The control domains.
  public var controls: [TestDomain] { domains.filter(\.isControl) }
  /// The categories of tested domains, in first-seen order.
  public var categories: [String] {
    var seen = Set<String>()
    return tested.map(\.category).filter { seen.insert($0).inserted }
  }
  /// The providers of tested domains, in first-seen order.
  public var providers: [String] {
    var seen = Set<String>()
    return tested.map(\.provider).filter { seen.insert($0).inserted }
  }

  /// The registry shipped with SaneHosts (`Resources/registry.tsv`).
  public static let builtIn: Registry = {
    do {
      return try Registry(tsv: String(decoding: PackageResources.registry_tsv, as: UTF8.self))
    } catch {
      preconditionFailure("The built-in registry does not parse: \(error)")
    }
  }()

  /// Parses `category<TAB>provider<TAB>hostname` lines; `#` starts a comment line.
  public init(tsv: String, custom: Bool = false) throws(RegistryError) {
    var domains: [TestDomain] = []
    for (index, line) in tsv.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let text = line.trimmingCharacters(in: .whitespaces)
      if text.isEmpty || text.hasPrefix("#") { continue }
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      guard fields.count == 3, !fields[0].isEmpty, !fields[1].isEmpty else {
        throw .malformedLine(line: index + 1, text: String(line))
      }
      let hostname = try Self.normalize(fields[2])
      domains.append(TestDomain(hostname: hostname, category: fields[0], provider: fields[1], isCustom: custom))
    }
    self.init(domains)
  }

  /// A hostname as probed: lowercase, without a trailing dot, IDN as punycode; invalid names are refused.
  public static func normalize(_ name: String) throws(RegistryError) -> String {
    var text = name.trimmingCharacters(in: .whitespaces).lowercased()
    if text.hasSuffix(".") { text.removeLast() }
    guard !text.isEmpty, case .success(let normalized) = NameRules.normalize(text), normalized.contains(".") else {
      throw .invalidHostname(name)
    }
    return normalized
  }

  /// Adds domains (a custom set, a sample), replacing none that are already there.
  public func adding(_ more: [TestDomain]) -> Registry { Registry(domains + more) }

  /// The built-in registry plus the user's own test domains kept in `store`.
  public static func builtIn(with store: Store) throws(StoreError) -> Registry {
    builtIn.adding(
      try store.customTestDomains().map {
        TestDomain(hostname: $0.hostname, category: $0.category, provider: $0.provider, isCustom: true)
      })
  }

  /// Only the tested domains of these categories (case-insensitive), and the controls.
  public func filtered(categories wanted: [String]) -> Registry {
    let lowered = Set(wanted.map { $0.lowercased() })
    return Registry(domains.filter { $0.isControl || lowered.contains($0.category.lowercased()) })
  }

  /// A deterministic sample of `count` names (same seed, same names): for testing a list or profile's
  /// own names rather than the registry.
  public static func sample(_ names: [String], count: Int, seed: UInt64) -> [String] {
    guard count < names.count else { return names }
    var generator = SeededGenerator(seed: seed)
    var pool = names.sorted()
    // A partial Fisher–Yates shuffle: the first `count` slots end up a uniform sample.
    for index in 0..<count {
      let pick = index + Int(generator.next() % UInt64(pool.count - index))
      pool.swapAt(index, pick)
    }
    return Array(pool.prefix(count))
  }
}

/// SplitMix64: a small generator whose output depends only on its seed.
struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Why a registry line or hostname cannot be used.
public enum RegistryError: Error, Sendable, Hashable {
  /// A line is not `category<TAB>provider<TAB>hostname`.
  case malformedLine(line: Int, text: String)
  /// Not a valid hostname.
  case invalidHostname(String)
}

extension RegistryError: LocalizedError {
  public var errorDescription: String? {
    switch self {
    case .malformedLine(let line, let text): "Registry line \(line) is not category, provider and hostname: “\(text)”."
    case .invalidHostname(let name): "“\(name)” is not a valid hostname."
    }
  }

  public var recoverySuggestion: String? {
    switch self {
    case .malformedLine: "Separate the three fields with tabs."
    case .invalidHostname: "Give a full name such as ads.example.com (letters, digits, hyphens, dots)."
    }
  }
}
