import Blocklists
import Foundation
import GRDB

/// A named combination of sources and allow/deny rules; one profile is active.
public struct Profile: Sendable, Hashable, Codable, Identifiable {
  /// The row id (the store assigns it when the profile is created).
  public var id: Int64
  /// The unique name, e.g. `default`.
  public var name: String
  /// What it is for.
  public var summary: String?
  /// The preset it was created from, if any.
  public var preset: String?
  /// Whether it is the active profile.
  public var isActive: Bool
  /// When it was created.
  public var createdAt: Date

  /// Creates a profile with row id `id`.
  public init(
    id: Int64, name: String, summary: String? = nil, preset: String? = nil, isActive: Bool = false,
    createdAt: Date = Date()
  ) {
    self.id = id
    self.name = name
    self.summary = summary
    self.preset = preset
    self.isActive = isActive
    self.createdAt = createdAt
  }

  /// Checks a profile name: letters, digits, `-`, `_` and `.`, 1 to 64 characters.
  public static func validate(name: String) throws(StoreError) {
    let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-_."))
    guard !name.isEmpty, name.count <= 64, name.unicodeScalars.allSatisfy(allowed.contains), !name.hasPrefix("-") else {
      throw .invalid(
        value: name, reason: "is not a usable profile name: use 1 to 64 letters, digits, “-”, “_” or “.”")
    }
  }
}

extension Profile: FetchableRecord, MutablePersistableRecord {
  public static let databaseTableName = "profile"

  /// The columns queries use, named once.
  public enum Columns {
    /// The `id` column.
    public static let id = Column(CodingKeys.id)
    /// The `name` column.
    public static let name = Column(CodingKeys.name)
    /// The `isActive` column.
    public static let isActive = Column(CodingKeys.isActive)
  }
}

/// An allow or deny rule of a profile.
public struct ProfileRule: Sendable, Hashable, Codable, Identifiable {
  /// Whether the rule takes names out of the block set or puts them in.
  public enum Action: String, Sendable, Hashable, Codable, CaseIterable {
    case allow, deny
  }

  /// The row id (the store assigns it when the rule is added).
  public var id: Int64
  /// The profile it belongs to.
  public var profileID: Int64
  /// Allow or deny.
  public var action: Action
  /// How it matches.
  public var kind: RuleKind
  /// The normalised name or the regular expression.
  public var pattern: String
  /// A note from the user.
  public var comment: String?
  /// When it was added.
  public var addedAt: Date
  /// When it ends (`allow add --for`): it is then removed and the profile applied again; nil: for good.
  public var expiresAt: Date?

  /// Creates a rule with row id `id`.
  public init(
    id: Int64, profileID: Int64, action: Action, kind: RuleKind, pattern: String, comment: String? = nil,
    addedAt: Date = Date(), expiresAt: Date? = nil
  ) {
    self.expiresAt = expiresAt
    self.id = id
    self.profileID = profileID
    self.action = action
    self.kind = kind
    self.pattern = pattern
    self.comment = comment
    self.addedAt = addedAt
  }
}

extension ProfileRule: FetchableRecord, MutablePersistableRecord {
  public static let databaseTableName = "rule"

  /// The columns queries use, named once.
  public enum Columns {
    /// The `id` column.
    public static let id = Column(CodingKeys.id)
    /// The `profileID` column.
    public static let profileID = Column(CodingKeys.profileID)
    /// The `action` column.
    public static let action = Column(CodingKeys.action)
    /// The `kind` column.
    public static let kind = Column(CodingKeys.kind)
    /// The `pattern` column.
    public static let pattern = Column(CodingKeys.pattern)
    /// The `expiresAt` column.
    public static let expiresAt = Column(CodingKeys.expiresAt)
  }
}

extension ProfileRule {
  /// Why the rule may not do what it seems to (`RuleSet.Rule.warning`), or nil.
  public var warning: String? {
    RuleSet.Rule(kind: kind, pattern: pattern, origin: "").warning(deny: action == .deny)
  }

  /// The rule as written: `example.com`, `=example.com`, `*.example.com` or `/regex/`.
  public var text: String {
    switch kind {
    case .exact: action == .deny ? pattern : "=\(pattern)"
    case .subdomains: pattern
    case .wildcard: "*.\(pattern)"
    case .regex: "/\(pattern)/"
    }
  }
}
