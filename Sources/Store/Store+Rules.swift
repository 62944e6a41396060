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

  /// A profile's rules as the engine takes them.
  public func ruleSet(for profile: Profile) throws(StoreError) -> RuleSet {
    let rules = try read { db in
      try ProfileRule.filter(ProfileRule.Columns.profileID == profile.id).order(ProfileRule.Columns.id).fetchAll(db)
    }
    return Self.ruleSet(rules, profile: profile.name)
  }

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
    _ text: String, action: ProfileRule.Action, to profile: String? = nil, comment: String? = nil
  ) throws(StoreError) -> ProfileRule {
    let result = try addRules([text], action: action, to: profile, comment: comment)
    guard let rule = result.added.first else { throw .alreadyExists(kind: "\(action.rawValue) rule", name: text) }
    return rule
  }

  /// Parses rules as written and adds them in one transaction, all or none: the first that is not a rule
  /// is the error, naming it. Rules the profile has already (or given twice) are not added again and
  /// are returned as they were written (`alreadyThere`): adding what is there changes nothing.
  @discardableResult
  public func addRules(
    _ texts: [String], action: ProfileRule.Action, to profile: String? = nil, comment: String? = nil
  ) throws(StoreError) -> (added: [ProfileRule], alreadyThere: [String]) {
    var parsed: [(text: String, rule: RuleSet.Rule)] = []
    for text in texts { parsed.append((text, try Self.parseRule(text, action: action))) }
    let rules = parsed
    return try write { db in
      let profile = try Self.profile(profile, db)
      var seen = Set<String>()
      var added: [ProfileRule] = []
      var alreadyThere: [String] = []
      for (text, rule) in rules {
        let existing = try ProfileRule.filter(
          ProfileRule.Columns.profileID == profile.id && ProfileRule.Columns.action == action.rawValue
            && ProfileRule.Columns.kind == rule.kind.rawValue && ProfileRule.Columns.pattern == rule.pattern
        ).fetchCount(db)
        guard existing == 0, seen.insert("\(rule.kind.rawValue) \(rule.pattern)").inserted else {
          alreadyThere.append(text)
          continue
        }
        added.append(
          try Self.insertNew(
            ProfileRule(
              id: 0, profileID: profile.id, action: action, kind: rule.kind, pattern: rule.pattern, comment: comment),
            db))
      }
      return (added, alreadyThere)
    }
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
