import Blocklists
import Foundation

/// Which lists of a profile block a queried name, as the profile's compiled block set answers it: the
/// name itself, or (for a server whose rules cover subdomains) a parent of it, unless an allow rule takes
/// the name out; a subdomains-only deny rule (`*.name`) blocks too. Answers are kept per name: a log
/// asks for the same names again and again.
public struct Attribution: Sendable {
  /// The lists, in the profile's order, then "deny rules" (the profile's own deny rules).
  public let lists: [String]
  /// The names each list holds in the compiled set (allowed names left out).
  public let sizes: [Int]
  private let compiled: CompiledList
  private let coversSubdomains: Bool
  private var known: [String: Int32] = [:]
  private var answers: [[Int32]] = []

  /// Attribution over `compiled`; `coversSubdomains` when the server's rules block a name's subdomains
  /// (dnsmasq's `address=/name/`, unbound's zones, RPZ's `*.name`), not for hosts files.
  public init(compiled: CompiledList, coversSubdomains: Bool) {
    self.compiled = compiled
    self.coversSubdomains = coversSubdomains
    lists = compiled.sources.map(\.name) + ["deny rules"]
    var sizes = [Int](repeating: 0, count: lists.count)
    let names = compiled.names
    for entry in 0..<names.entryCount where !names.isRemoved(entry) {
      names.forEachSource(of: entry) { source in sizes[min(source, sizes.count - 1)] += 1 }
    }
    self.sizes = sizes
  }

  /// The index of "deny rules" in `lists`.
  public var denyRules: Int { lists.count - 1 }

  /// The lists that block `name` (indexes into `lists`), empty when the profile does not block it.
  public mutating func lists(for name: String) -> [Int32] {
    if let index = known[name] { return answers[Int(index)] }
    let found = compute(name)
    // Names repeat; answers repeat more: share them.
    let index: Int32
    if let same = answers.lastIndex(of: found), answers.count - same < 64 {
      index = Int32(same)
    } else {
      index = Int32(answers.count)
      answers.append(found)
    }
    if known.count < 2_000_000 { known[name] = index }
    return found
  }

  private func compute(_ query: String) -> [Int32] {
    guard case .success(let name) = NameRules.normalize(query) else { return [] }
    var found = Set<Int32>()
    let names = compiled.names
    func add(_ candidate: String) {
      guard let entry = names.entry(of: candidate), !names.isRemoved(entry) else { return }
      names.forEachSource(of: entry) { found.insert(Int32(min($0, lists.count - 1))) }
    }
    add(name)
    let parents = NameRules.parents(of: name)
    if coversSubdomains {
      let allowed = compiled.rules.allow.contains { RuleSet.matches($0, name) }
      if !allowed { parents.forEach(add) }
    }
    if found.isEmpty, compiled.blocks(name) { found.insert(Int32(denyRules)) }
    return found.sorted()
  }
}
