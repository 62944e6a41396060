import Blocklists
import Foundation

/// Which lists of a profile block a queried name, as a server given the profile's drop-in answers it:
/// the name itself, or (in a format whose entries cover subdomains) a parent of it, with the format's
/// own exceptions and subdomains-only blocks, decided by the renderer's engine (`Exceptions`, the same
/// verdict `why` explains and the drop-in writer writes), so the writer and the counter cannot drift:
/// unbound's exact allow is a transparent zone that opens the name's subdomains too, a subdomains-only
/// deny the format cannot say blocks nothing there.
///
/// Each name is looked up in the set's table by its bytes, then each parent as a suffix of the same
/// bytes: no string is made for a parent, and the engine's verdict is only asked when a profile has
/// allow rules or subdomains-only blocks and something is listed.
public struct Attribution: Sendable {
  /// The lists, in the profile's order, then "deny rules" (the profile's own deny rules).
  public let lists: [String]
  /// The names each list holds in the compiled set (allowed names left out).
  public let sizes: [Int]
  /// The format the server was given (`OutputFormat.hosts` for a hosts file or a Pi-hole's gravity).
  public let format: OutputFormat
  private let compiled: CompiledList
  /// The format's exceptions and subdomains-only blocks (empty when it needs none).
  private let exceptions: Exceptions
  /// The parents whose subdomains-only deny rule (`*.parent`) the format says, written or not (a listed
  /// parent's entry makes the rule's own line redundant, but the rule still blocks its names alone).
  private let denyBelow: Set<String>
  private let publicSuffixes: PublicSuffixList

  /// Attribution over `compiled` as a server given it in `format` answers.
  public init(compiled: CompiledList, format: OutputFormat, publicSuffixes: PublicSuffixList = .bundled) {
    self.compiled = compiled
    self.format = format
    self.publicSuffixes = publicSuffixes
    exceptions = compiled.exceptions(for: format, publicSuffixes: publicSuffixes)
    let rules = compiled.rules
    denyBelow = Set(
      rules.subdomainDenials.map(\.pattern).filter { pattern in
        CompiledList.canBlockSubdomainsOnly(format) && !rules.allowsEverySubdomain(of: pattern)
          && !publicSuffixes.isPublicSuffix(pattern) && (format != .rpz || pattern.utf8.count <= Renderer.rpzNameLimit)
      })
    lists = compiled.sources.map(\.name) + ["deny rules"]
    var sizes = [Int](repeating: 0, count: lists.count)
    let names = compiled.names
    for entry in 0..<names.entryCount where !names.isRemoved(entry) {
      names.forEachSource(of: entry) { source in sizes[min(source, sizes.count - 1)] += 1 }
    }
    // The deny rules' subdomains-only blocks this format writes count as entries of theirs (a row that
    // blocks queries with a size of 0 read as nothing blocking them).
    sizes[sizes.count - 1] += exceptions.below.count
    self.sizes = sizes
  }

  /// The index of "deny rules" in `lists`.
  public var denyRules: Int { lists.count - 1 }

  /// The lists that block `name` (indexes into `lists`, ascending), empty when the server does not.
  public func lists(for query: String) -> [Int32] {
    guard case .success(let name) = NameRules.normalize(query) else { return [] }
    var bytes = Array(name.utf8)
    let names = compiled.names
    let last = Int32(lists.count - 1)
    let covers = format.coversSubdomains
    // The sources of the name's entry, and of each listed parent's (nearest first).
    var own: [Int32] = []
    var parents: [(suffix: Int, sources: [Int32])] = []
    bytes.withUnsafeMutableBufferPointer { mutable in
      let buffer = UnsafeBufferPointer(mutable)
      func sources(_ suffix: UnsafeBufferPointer<UInt8>) -> [Int32]? {
        guard let entry = names.entry(of: suffix, hash: NameHash.hash(suffix)), !names.isRemoved(entry) else {
          return nil
        }
        var found: [Int32] = []
        names.forEachSource(of: entry) { found.append(min(Int32($0), last)) }
        return found
      }
      own = sources(buffer) ?? []
      guard covers else { return }
      for index in buffer.indices where buffer[index] == UInt8(ascii: ".") {
        if let found = sources(UnsafeBufferPointer(rebasing: buffer[(index + 1)...])) {
          parents.append((index + 1, found))
        }
      }
    }
    // A hosts file writes every listed name, a public suffix too (`CompiledList.isWritten`).
    guard covers else { return own.isEmpty ? [] : Self.sorted(own) }
    if exceptions.isEmpty && exceptions.below.isEmpty && denyBelow.isEmpty {
      guard !own.isEmpty || !parents.isEmpty else { return [] }
      // No exception and no subdomains-only block: the name's entry and every listed parent's block it,
      // but a public suffix is never written in a covering format.
      var found = own.isEmpty || publicSuffixes.isPublicSuffix(name) ? [] : own
      for parent in parents where !publicSuffixes.isPublicSuffix(String(name.utf8.dropFirst(parent.suffix))!) {
        found += parent.sources
      }
      return Self.sorted(found)
    }
    // Nothing listed at the name or above it: only a subdomains-only block of a parent can block it (an
    // exception only ever lets a listed name through), so most names end here without the verdict.
    if own.isEmpty && parents.isEmpty
      && (denyBelow.isEmpty || !NameRules.parents(of: name).contains(where: denyBelow.contains))
    {
      return []
    }
    // The renderer's verdict for this format: its exceptions and subdomains-only blocks decide whether
    // the name is blocked; then every entry that blocks it counts, as without exceptions.
    let written = { (candidate: String) in
      self.compiled.isWritten(candidate, format: self.format, publicSuffixes: self.publicSuffixes)
    }
    switch exceptions.verdict(name, isWritten: written) {
    case .listed, .covered:
      return Self.sorted(blocking(name, own: own, parents: parents, written: written))
    case .excepted, .notCovered:
      return []
    }
  }

  /// The lists whose entries block a blocked `name`: its own entry's, then each written parent's, nearest
  /// first, up to the nearest exception that lets the names below it through (an entry above it blocks
  /// nothing here); a subdomains-only block of a parent counts for the deny rules. What each list alone
  /// would block, whatever the others hold.
  private func blocking(
    _ name: String, own: [Int32], parents: [(suffix: Int, sources: [Int32])], written: (String) -> Bool
  ) -> [Int32] {
    var found = written(name) ? own : []
    for parent in NameRules.parents(of: name) {
      if let exception = exceptions.exception(at: parent),
        exception.scope != .exact || !exceptions.reblocksBelowExact
      {
        break
      }
      if written(parent), let listed = parents.first(where: { String(name.utf8.dropFirst($0.suffix))! == parent }) {
        found += listed.sources
      }
      if denyBelow.contains(parent) { found.append(Int32(lists.count - 1)) }
    }
    return found
  }

  private static func sorted(_ found: [Int32]) -> [Int32] { Array(Set(found)).sorted() }
}
