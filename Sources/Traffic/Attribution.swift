import Blocklists
import Foundation

/// Which lists of a profile block a queried name, as the profile's compiled block set answers it: the
/// name itself, or (for a server whose rules cover subdomains) a parent of it, unless an allow rule takes
/// the name out; a subdomains-only deny rule (`*.name`) blocks too.
///
/// Each name is looked up in the set's table by its bytes, then each parent as a suffix of the same
/// bytes: no string is made for a parent (but to match a `*.name` deny rule, when the profile has one), and
/// the allow rules are only tried when a parent is listed.
public struct Attribution: Sendable {
  /// The lists, in the profile's order, then "deny rules" (the profile's own deny rules).
  public let lists: [String]
  /// The names each list holds in the compiled set (allowed names left out).
  public let sizes: [Int]
  private let compiled: CompiledList
  private let coversSubdomains: Bool
  /// The patterns of `*.name` deny rules.
  private let subdomainDenials: Set<String>

  /// Attribution over `compiled`; `coversSubdomains` when the server's rules block a name's subdomains
  /// (dnsmasq's `address=/name/`, unbound's zones, RPZ's `*.name`), not for hosts files.
  public init(compiled: CompiledList, coversSubdomains: Bool) {
    self.compiled = compiled
    self.coversSubdomains = coversSubdomains
    lists = compiled.sources.map(\.name) + ["deny rules"]
    subdomainDenials = Set(compiled.rules.subdomainDenials.map(\.pattern))
    var sizes = [Int](repeating: 0, count: lists.count)
    let names = compiled.names
    for entry in 0..<names.entryCount where !names.isRemoved(entry) {
      names.forEachSource(of: entry) { source in sizes[min(source, sizes.count - 1)] += 1 }
    }
    self.sizes = sizes
  }

  /// The index of "deny rules" in `lists`.
  public var denyRules: Int { lists.count - 1 }

  /// The lists that block `name` (indexes into `lists`, ascending), empty when the profile does not.
  public func lists(for query: String) -> [Int32] {
    guard case .success(let name) = NameRules.normalize(query) else { return [] }
    var bytes = Array(name.utf8)
    let names = compiled.names
    let last = Int32(lists.count - 1)
    var found: [Int32] = []
    var parentListed = false
    var deniedBelow = false
    bytes.withUnsafeMutableBufferPointer { mutable in
      let buffer = UnsafeBufferPointer(mutable)
      func add(_ suffix: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let entry = names.entry(of: suffix, hash: NameHash.hash(suffix)), !names.isRemoved(entry) else {
          return false
        }
        names.forEachSource(of: entry) { found.append(min(Int32($0), last)) }
        return true
      }
      _ = add(buffer)
      for index in buffer.indices where buffer[index] == UInt8(ascii: ".") {
        let suffix = UnsafeBufferPointer(rebasing: buffer[(index + 1)...])
        if coversSubdomains, add(suffix) { parentListed = true }
        if !subdomainDenials.isEmpty,
          subdomainDenials.contains(String(decoding: suffix, as: UTF8.self))
        {
          deniedBelow = true
        }
      }
    }
    let allowed = { compiled.rules.allow.contains { RuleSet.matches($0, name) } }
    if parentListed, allowed() {
      // An allow rule's exception lets the name through; only its own entry would block it, and an
      // allow rule matching it removed that.
      found.removeAll()
    }
    if found.isEmpty, deniedBelow, !allowed() { found.append(last) }
    return Array(Set(found)).sorted()
  }
}
