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
    let profile = try store.profile(name)
    let members = try store.sources(in: profile.name).filter(\.enabled)
    let rules = try store.ruleSet(for: profile)
    var sources: [ListSource] = []
    var missing: [String] = []
    for member in members {
      guard let file = member.source.cacheFile else {
        missing.append(member.source.key)
        continue
      }
      var source = ListSource.file(store.directory.file(file).path, format: member.source.format)
      source.name = member.source.key
      sources.append(source)
    }
    if sources.isEmpty && rules.deny.isEmpty {
      throw ApplyError.nothingToApply(
        profile: profile.name,
        reason: members.isEmpty ? .noEnabledSource : .noSavedCopy)
    }
    let fingerprint = try store.currentFingerprint(of: profile)
    if let compiled = try store.compiled(profile), compiled.fingerprint == fingerprint,
      let list = CompiledList.readArchive(
        at: store.directory.file(compiled.file).path, fingerprint: fingerprint, rules: rules)
    {
      return BlockSet(profile: profile, list: list, missing: missing, fingerprint: fingerprint, fromFile: true)
    }
    // Not compiled yet with these rules: merge each copy's own block set file (no copy is parsed again).
    var merging = Compiler.Merging(
      sourceCount: sources.count, capacity: members.reduce(0) { $0 + ($1.source.unique ?? 0) })
    for member in members where member.source.cacheFile != nil {
      let copy = Store.copyFingerprint(sha256: member.source.sha256 ?? "", format: member.source.format)
      let file = store.directory.file(Store.listFile(forCopy: member.source.cacheFile!)).path
      if merging.add(archiveAt: file, fingerprint: copy, name: member.source.key) { continue }
      guard let list = await store.list(of: member.source) else {
        // A copy that cannot be read: compile what can be, and let the compiler name the problem.
        let list = try await Compiler().compile(sources, rules: rules)
        return BlockSet(profile: profile, list: list, missing: missing, fingerprint: fingerprint)
      }
      merging.add(list, name: member.source.key)
    }
    return BlockSet(profile: profile, list: merging.finish(rules: rules), missing: missing, fingerprint: fingerprint)
  }
}
