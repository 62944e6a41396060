import Blocklists
import Foundation
import Store

/// A profile's names to block, compiled from its sources' saved copies and its allow and deny rules.
///
/// Read from the profile's block set file (written by `update`) when its fingerprint matches the current
/// copies and rules; else merged from each copy's own block set file with the current rules, so a rule
/// added since the last `update` takes effect at once without parsing any copy again.
public struct ProfileList: Sendable {
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

  /// What a profile compiles from, read in one transaction without loading a name: enough to tell
  /// whether a file already holds it, and how many names it has once compiled.
  ///
  /// An apply that finds its file already holding this fingerprint needs nothing more: reading the
  /// profile's block set file and rebuilding its table took half of such an apply (0.04 of 0.09 s).
  public struct Plan: Sendable {
    /// The profile.
    public var profile: Profile
    /// Enabled sources left out because they have no saved copy yet.
    public var missing: [String]
    /// The fingerprint of what the names are compiled from.
    public var fingerprint: String
    /// How many names the profile blocks, when its compiled block set is current (nil: `load` to know).
    public var names: Int?
    fileprivate let snapshot: ProfileSnapshot
    /// The rules, parsed once.
    public let rules: RuleSet

    fileprivate init(snapshot: ProfileSnapshot) throws(StoreError) {
      self.snapshot = snapshot
      rules = try snapshot.ruleSet
      profile = snapshot.profile
      missing = snapshot.sources.filter { $0.enabled && $0.source.cacheFile == nil }.map(\.source.key)
      fingerprint = snapshot.fingerprint
      names = snapshot.compiled.flatMap { $0.fingerprint == snapshot.fingerprint ? $0.names : nil }
    }

    /// The names: the profile's block set file when its fingerprint is current; else each copy's own
    /// block set file merged with the current rules (a rule added since the last `update` takes effect
    /// at once, without parsing any copy again).
    public func load(from store: Store) async throws -> ProfileList {
      try await load(from: store, rules: nil)
    }

    /// The profile's rules as a ledger records them.
    public var appliedRules: Ledger.Rules {
      Ledger.Rules(allow: rules.allow.map(\.text), deny: rules.deny.map(\.text))
    }

    /// The names compiled with `other` rules instead of the profile's own (what a file written with
    /// those rules holds, over today's copies); nil, or the same rules: the profile's.
    public func load(from store: Store, rules other: Ledger.Rules?) async throws -> ProfileList {
      if let other, other != appliedRules {
        var set = RuleSet()
        set.allow = other.allow.compactMap { try? RuleSet.rule($0, origin: "as applied") }
        set.deny = other.deny.compactMap { try? RuleSet.rule($0, origin: "as applied", deny: true) }
        let merging = try await store.merging(copiesOf: snapshot.sources.filter(\.enabled).map(\.source))
        return ProfileList(
          profile: profile, list: merging.finish(rules: set), missing: missing, fingerprint: fingerprint)
      }
      // The profile's block set file, opened inside profiles/ without following a link (a row names it).
      if let compiled = snapshot.compiled, compiled.fingerprint == fingerprint,
        let found = try await store.storedFile(compiled.file).withPath({
          CompiledList.readArchive(at: $0, fingerprint: fingerprint, rules: rules)
        }),
        let list = found
      {
        return ProfileList(profile: profile, list: list, missing: missing, fingerprint: fingerprint, fromFile: true)
      }
      let merging = try await store.merging(copiesOf: snapshot.sources.filter(\.enabled).map(\.source))
      return ProfileList(
        profile: profile, list: merging.finish(rules: rules), missing: missing, fingerprint: fingerprint)
    }
  }

  /// Plans compiling a profile (nil: the active one): one read of the profile, its sources, rules, last
  /// compile and current fingerprint. Throws when there is nothing to apply.
  public static func plan(profile name: String?, in store: Store) throws -> Plan {
    let plan = try Plan(snapshot: try store.snapshot(of: name))
    let members = plan.snapshot.sources.filter(\.enabled).map(\.source)
    if !members.contains(where: { $0.cacheFile != nil }) && plan.rules.deny.isEmpty {
      throw ApplyError.nothingToApply(
        profile: plan.profile.name,
        reason: members.isEmpty ? .noEnabledSource : .noSavedCopy)
    }
    return plan
  }

  /// Compiles a profile (nil: the active one).
  public static func compile(profile name: String?, in store: Store) async throws -> ProfileList {
    try await plan(profile: name, in: store).load(from: store)
  }
}
