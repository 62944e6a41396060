import Blocklists
import GRDB

/// Everything a status view shows of a profile, read in one transaction: the profile and the others, its
/// sources, its compiled block set, its last update, the last blocker test, and the fingerprint of its
/// current inputs.
public struct ProfileSnapshot: Sendable {
  /// The profile.
  public var profile: Profile
  /// Every profile, by name.
  public var profiles: [Profile]
  /// Its sources, in order, with whether it uses each.
  public var sources: [ProfileSource]
  /// Its allow and deny rules, in the order they were added.
  public var rules: [ProfileRule]
  /// Its compiled block set, if compiled.
  public var compiled: CompiledProfile?
  /// Its last update.
  public var lastUpdate: UpdateRun?
  /// The last blocker test (of any profile).
  public var lastTest: TestRunRecord?
  /// The fingerprint of what it would compile from now (`Store.currentFingerprint(of:)`).
  public var fingerprint: String

  /// Creates a snapshot (the store makes them; tests make their own).
  public init(
    profile: Profile, profiles: [Profile], sources: [ProfileSource], rules: [ProfileRule],
    compiled: CompiledProfile?, lastUpdate: UpdateRun?, lastTest: TestRunRecord?, fingerprint: String
  ) {
    self.profile = profile
    self.profiles = profiles
    self.sources = sources
    self.rules = rules
    self.compiled = compiled
    self.lastUpdate = lastUpdate
    self.lastTest = lastTest
    self.fingerprint = fingerprint
  }

  /// Its rules as the engine applies them; a stored rule the parser would not have made is refused
  /// (`StoreError.invalidStoredRule`).
  public var ruleSet: RuleSet {
    get throws(StoreError) { try Store.checkedRuleSet(rules, profile: profile.name) }
  }

  /// Whether the compiled block set matches the current copies and rules.
  public var isCompiledListCurrent: Bool { compiled?.fingerprint == fingerprint }
}

extension Store {
  /// A profile's snapshot (the active profile's when `name` is nil), in one read transaction with cached
  /// statements: the dashboard's overview reads it on every request.
  public func snapshot(of name: String? = nil) throws(StoreError) -> ProfileSnapshot {
    try read { db in try Self.snapshot(of: name, db) }
  }

  /// The store's generation and, unless it is `known`, the profile's snapshot (the active profile's
  /// when `name` is nil), both of one state of the store: what the dashboard shows is read again only
  /// after a write.
  public func snapshot(of name: String? = nil, ifGenerationIsNot known: Int64?) throws(StoreError) -> (
    generation: Int64, snapshot: ProfileSnapshot?
  ) {
    try read { db in
      let generation = try Self.generation(db)
      return (generation, generation == known ? nil : try Self.snapshot(of: name, db))
    }
  }

  static func snapshot(of name: String?, _ db: Database) throws -> ProfileSnapshot {
    let profile = try Self.profile(name, db)
    let sources = try Self.sources(of: profile, db)
    let rules = try ProfileRule.fetchAll(
      db.cachedStatement(sql: "SELECT * FROM rule WHERE profileID = ? ORDER BY id"), arguments: [profile.id])
    let inputs = sources.filter { $0.enabled && $0.source.cacheFile != nil }.map(\.source)
    return ProfileSnapshot(
      profile: profile,
      profiles: try Profile.fetchAll(db.cachedStatement(sql: "SELECT * FROM profile ORDER BY name COLLATE NOCASE")),
      sources: sources,
      rules: rules,
      compiled: try CompiledProfile.fetchOne(
        db.cachedStatement(sql: "SELECT * FROM compiledProfile WHERE profileID = ?"), arguments: [profile.id]),
      lastUpdate: try UpdateRun.fetchOne(
        db.cachedStatement(sql: "SELECT * FROM updateRun WHERE profileID = ? ORDER BY id DESC LIMIT 1"),
        arguments: [profile.id]),
      lastTest: try TestRunRecord.fetchOne(
        db.cachedStatement(sql: "SELECT * FROM testRun ORDER BY startedAt DESC, id DESC LIMIT 1")),
      fingerprint: Self.fingerprint(
        inputs.map { ($0.id, $0.sha256 ?? "", $0.format) }, rules: Self.ruleSet(rules, profile: profile.name)))
  }
}
