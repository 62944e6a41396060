import Blocklists
import Foundation
import Store

/// A profile's names to block, compiled from its sources' saved copies and its allow and deny rules.
///
/// Read from the profile's block set file (written by `update`) when its fingerprint matches the current
/// copies and rules; else merged from each copy's own block set file with the current rules, so a rule
/// added since the last `update` takes effect at once without parsing any copy again.
public struct BlockSet: Sendable {
  /// The profile.
  public var profile: Profile
  /// The compiled names.
  public var list: CompiledList
  /// Enabled sources left out because they have no saved copy yet (never updated successfully).
  public var missing: [String]
  /// The fingerprint of what the names were compiled from (`Store.currentFingerprint(of:)`).
  public var fingerprint: String
  /// Whether the names were read from the profile's block set file (else compiled now).
  public var fromFile = false

  /// Compiles a profile (nil: the active one).
  public static func compile(profile name: String?, in store: Store) async throws -> BlockSet {
    // One read of everything: profile, sources, rules, last compile and the current fingerprint.
    let snapshot = try store.snapshot(of: name)
    let profile = snapshot.profile
    let members = snapshot.sources.filter(\.enabled).map(\.source)
    let saved = members.filter { $0.cacheFile != nil }
    let missing = members.filter { $0.cacheFile == nil }.map(\.key)
    let rules = snapshot.ruleSet
    if saved.isEmpty && rules.deny.isEmpty {
      throw ApplyError.nothingToApply(
        profile: profile.name,
        reason: members.isEmpty ? .noEnabledSource : .noSavedCopy)
    }
    let fingerprint = snapshot.fingerprint
    if let compiled = snapshot.compiled, compiled.fingerprint == fingerprint,
      let list = CompiledList.readArchive(
        at: store.directory.file(compiled.file).path, fingerprint: fingerprint, rules: rules)
    {
      return BlockSet(profile: profile, list: list, missing: missing, fingerprint: fingerprint, fromFile: true)
    }
    // Not compiled yet with these rules: merge each copy's own block set file (no copy is parsed again).
    var merging = Compiler.Merging(sourceCount: saved.count, capacity: saved.reduce(0) { $0 + ($1.unique ?? 0) })
    for source in saved {
      try await store.merge(
        copy: source.cacheFile ?? "", sha256: source.sha256 ?? "", format: source.format, name: source.key,
        into: &merging)
    }
    return BlockSet(profile: profile, list: merging.finish(rules: rules), missing: missing, fingerprint: fingerprint)
  }
}
