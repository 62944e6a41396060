import Blocklists
import Foundation
import GRDB

extension Store {
  /// A profile's rules (the active profile's when nil), allow rules first, in the order added.
  public func rules(in profile: String? = nil, action: ProfileRule.Action? = nil) throws(StoreError) -> [ProfileRule] {
    try read { db in
      let profile = try Self.profile(profile, db)
      var request = ProfileRule.filter(ProfileRule.Columns.profileID == profile.id)
      if let action { request = request.filter(ProfileRule.Columns.action == action.rawValue) }
      return try request.order(ProfileRule.Columns.action, ProfileRule.Columns.id).fetchAll(db)
    }
  }

  /// A profile's rules as the engine takes them; a stored rule the parser would not have made is refused
  /// (`StoreError.invalidStoredRule`).
  public func ruleSet(for profile: Profile) throws(StoreError) -> RuleSet {
    let rules = try read { db in
      try ProfileRule.filter(ProfileRule.Columns.profileID == profile.id).order(ProfileRule.Columns.id).fetchAll(db)
    }
    return try Self.checkedRuleSet(rules, profile: profile.name)
  }

  /// The rules as the engine takes them, each checked as the parser would have made it
  /// (`RuleSet.Rule.problem`): a row written into the database by anything but `addRules` (a newline
  /// or a quote in its pattern, a regular expression as a deny rule) is `invalidStoredRule`, never
  /// rendered into a file.
  static func checkedRuleSet(_ rules: [ProfileRule], profile: String) throws(StoreError) -> RuleSet {
    for rule in rules {
      let engine = RuleSet.Rule(kind: rule.kind, pattern: rule.pattern, origin: "rule \(rule.id)")
      if let problem = engine.problem(deny: rule.action == .deny) {
        throw .invalidStoredRule(
          profile: profile, id: rule.id, action: rule.action.rawValue, text: engine.text, reason: problem)
      }
    }
    return ruleSet(rules, profile: profile)
  }

  /// The rules unchecked: what the fingerprint hashes (a store's rows as they are).
  static func ruleSet(_ rules: [ProfileRule], profile: String) -> RuleSet {
    var set = RuleSet()
    for rule in rules {
      let converted = RuleSet.Rule(
        kind: rule.kind, pattern: rule.pattern, origin: "profile \(profile), rule \(rule.id)")
      switch rule.action {
      case .allow: set.allow.append(converted)
      case .deny: set.deny.append(converted)
      }
    }
    return set
  }

  /// Parses a rule as written (`example.com`, `=example.com`, `*.example.com`, `/regex/`) and adds it;
  /// `alreadyExists` when the profile has it.
  @discardableResult
  public func addRule(
    _ text: String, action: ProfileRule.Action, to profile: String? = nil, comment: String? = nil,
    expiresAt: Date? = nil
  ) throws(StoreError) -> ProfileRule {
    let result = try addRules([text], action: action, to: profile, comment: comment, expiresAt: expiresAt)
    guard let rule = result.added.first ?? result.retimed.first else {
      throw .alreadyExists(kind: "\(action.rawValue) rule", name: text)
    }
    return rule
  }

  /// What `addRules` did with each rule given.
  public struct RuleAddition: Sendable, Hashable {
    /// Rules the profile did not have.
    public var added: [ProfileRule] = []
    /// Rules it had, as written, left as they were (adding what is there changes nothing).
    public var alreadyThere: [String] = []
    /// Rules it had whose end changed: a rule for a while given again for a while ends at the later
    /// time, and given without an end it stays for good.
    public var retimed: [ProfileRule] = []
  }

  /// Parses rules as written and adds them in one transaction, all or none: the first that is not a rule
  /// is the error, naming it. `expiresAt`: when they end (nil: for good; allow rules only). A rule the
  /// profile has already (or given twice) is not added again: it is `alreadyThere`, or `retimed` when
  /// this changes when it ends. A rule for good is never made one that ends.
  @discardableResult
  public func addRules(
    _ texts: [String], action: ProfileRule.Action, to profile: String? = nil, comment: String? = nil,
    expiresAt: Date? = nil
  ) throws(StoreError) -> RuleAddition {
    if expiresAt != nil && action == .deny {
      throw .invalid(
        value: texts.joined(separator: " "), reason: "only an allow rule can end; remove a deny rule instead")
    }
    var parsed: [(text: String, rule: RuleSet.Rule)] = []
    for text in texts { parsed.append((text, try Self.parseRule(text, action: action))) }
    let rules = parsed
    return try write { db in
      let profile = try Self.profile(profile, db)
      var seen = Set<String>()
      var result = RuleAddition()
      for (text, rule) in rules {
        guard seen.insert("\(rule.kind.rawValue) \(rule.pattern)").inserted else {
          result.alreadyThere.append(text)
          continue
        }
        let existing = try ProfileRule.filter(
          ProfileRule.Columns.profileID == profile.id && ProfileRule.Columns.action == action.rawValue
            && ProfileRule.Columns.kind == rule.kind.rawValue && ProfileRule.Columns.pattern == rule.pattern
        ).fetchOne(db)
        if var existing {
          guard let ends = existing.expiresAt, ends != expiresAt, expiresAt.map({ $0 > ends }) ?? true else {
            result.alreadyThere.append(text)
            continue
          }
          existing.expiresAt = expiresAt
          try existing.update(db)
          result.retimed.append(existing)
          continue
        }
        result.added.append(
          try Self.insertNew(
            ProfileRule(
              id: 0, profileID: profile.id, action: action, kind: rule.kind, pattern: rule.pattern, comment: comment,
              expiresAt: expiresAt),
            db))
      }
      return result
    }
  }

  /// A rule whose time was up, and the profile it was removed from.
  public struct EndedRule: Sendable, Hashable {
    /// The profile's name.
    public var profile: String
    /// The rule as it was.
    public var rule: ProfileRule
  }

  /// Removes every rule whose end is at or before `now`, in every profile, in one transaction, and returns
  /// them; two processes expiring at once remove each rule once (the second finds none).
  public func removeEndedRules(at now: Date) throws(StoreError) -> [EndedRule] {
    try write { db in
      let ended = try ProfileRule.filter(ProfileRule.Columns.expiresAt <= now).order(ProfileRule.Columns.id).fetchAll(
        db)
      var result: [EndedRule] = []
      for rule in ended {
        let profile = try Profile.fetchOne(db, key: rule.profileID)
        _ = try rule.delete(db)
        result.append(EndedRule(profile: profile?.name ?? "", rule: rule))
      }
      return result
    }
  }

  /// When the next rule ends, in any profile; nil when none does.
  public func nextRuleEnd() throws(StoreError) -> Date? {
    try read { db in try Date.fetchOne(db, ProfileRule.select(min(ProfileRule.Columns.expiresAt))) }
  }

  /// Removes a rule, given as written when added or by its number.
  @discardableResult
  public func removeRule(_ text: String, action: ProfileRule.Action, from profile: String? = nil) throws(StoreError)
    -> ProfileRule
  {
    let parsed = try? Self.parseRule(text, action: action)
    return try write { db in
      let profile = try Self.profile(profile, db)
      let rules = try ProfileRule.filter(
        ProfileRule.Columns.profileID == profile.id && ProfileRule.Columns.action == action.rawValue
      )
      .fetchAll(db)
      let match =
        rules.first { parsed != nil && $0.kind == parsed!.kind && $0.pattern == parsed!.pattern }
        ?? rules.first { String($0.id) == text }
      guard let match else {
        let known = rules.map { RuleSet.Rule(kind: $0.kind, pattern: $0.pattern, origin: "").text }
        throw StoreError.notFound(kind: "\(action.rawValue) rule in “\(profile.name)”", name: text, known: known)
      }
      _ = try match.delete(db)
      return match
    }
  }

  static func parseRule(_ text: String, action: ProfileRule.Action) throws(StoreError) -> RuleSet.Rule {
    do {
      return try RuleSet.rule(text.trimmingCharacters(in: .whitespaces), origin: "rule", deny: action == .deny)
    } catch {
      throw .invalid(value: text, reason: Self.ruleReason(error))
    }
  }

  private static func ruleReason(_ error: CompileError) -> String {
    if case .invalidRule(_, _, _, let reason) = error { return reason }
    return error.localizedDescription
  }
}
