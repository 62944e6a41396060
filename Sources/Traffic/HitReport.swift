import Foundation

/// What `hits` found: for each list of the profile, the network's queries it blocks.
public struct HitReport: Sendable, Codable, Hashable {
  /// One list's share of the blocking.
  public struct ListHits: Sendable, Codable, Hashable {
    /// Creates a row.
    public init(list: String, size: Int, queries: Int, names: Int, onlyThis: Int, share: Double) {
      self.list = list
      self.size = size
      self.queries = queries
      self.names = names
      self.onlyThis = onlyThis
      self.share = share
    }

    /// The list (a source's key, or "deny rules").
    public var list: String
    /// Names it holds in the profile's block set.
    public var size: Int
    /// Queries for names it blocks (itself or through a parent).
    public var queries: Int
    /// Distinct names asked that it blocks.
    public var names: Int
    /// Queries no other list of the profile blocks.
    public var onlyThis: Int
    /// Its queries as a share of all blocked queries, 0…1.
    public var share: Double
    /// Queries for names it lists that one of the profile's allow rules let through.
    public var allowedQueries = 0
    /// Those allow rules, as written.
    public var allowedBy: [String] = []
  }

  /// A name asked, how often, and the lists that block it.
  public struct NameHits: Sendable, Codable, Hashable {
    /// Creates a row.
    public init(name: String, queries: Int, lists: [String]) {
      self.name = name
      self.queries = queries
      self.lists = lists
    }

    public var name: String
    public var queries: Int
    public var lists: [String]
  }

  /// A client and what it asked (only with `--by-client`).
  public struct ClientHits: Sendable, Codable, Hashable {
    /// Creates a row.
    public init(client: String, queries: Int, blocked: Int) {
      self.client = client
      self.queries = queries
      self.blocked = blocked
    }

    public var client: String
    public var queries: Int
    public var blocked: Int
  }

  /// Names the profile lets through now (a rule added since the last apply) that the state the server
  /// runs still blocks, with their queries: "allowed in the profile, not applied yet".
  public var notApplied: [NameHits] = []
  /// Their queries in all.
  public var notAppliedQueries = 0
  /// The command that applies the profile to the server (set when the ledger knows the file).
  public var applyCommand: String?
  /// What the server's logs need to tell its blocks, when they do not (`serverTellsBlocks` false).
  public var blindReason: String?

  /// The profile whose block set decides.
  public var profile: String
  /// The server whose rules the profile was applied as (what "blocks" means: with or without subdomains).
  public var server: String
  /// The files read, oldest first, and the Pi-hole if one was asked.
  public var sources: [String]
  /// Queries before this time were left out.
  public var since: Date?
  /// The first and last query counted.
  public var first: Date?
  public var last: Date?
  /// Queries counted (in the window).
  public var queries = 0
  /// Distinct names asked.
  public var distinctNames = 0
  /// Queries the profile's block set blocks.
  public var blocked = 0
  /// Whether the logs say which queries the server blocked (unbound only with `log-local-actions`).
  public var serverTellsBlocks = true
  /// Queries the server says it blocked.
  public var serverBlocked = 0
  /// Per list, in the profile's order (lists without a hit included).
  public var lists: [ListHits] = []
  /// The most asked blocked names.
  public var top: [NameHits] = []
  /// Queries the server answered although the profile blocks their name: it is not running what was
  /// applied (or a rule changed since). Nil when the logs do not say what the server blocked.
  public var answeredButBlocked: Int?
  /// The names behind `answeredButBlocked`, most asked first.
  public var answeredNames: [NameHits] = []
  /// Queries the server blocked that the profile does not (its other rules, a CNAME's target, another list).
  public var blockedElsewhere = 0
  /// Per client, with `--by-client` only.
  public var clients: [ClientHits]?
  /// Lines that were read, and those skipped with their reasons.
  public var findings = LogFindings()

  /// A report with no query counted yet.
  public init(
    profile: String, server: String, sources: [String], since: Date? = nil, first: Date? = nil, last: Date? = nil
  ) {
    self.profile = profile
    self.server = server
    self.sources = sources
    self.since = since
    self.first = first
    self.last = last
  }

  /// Lists with no hit in the window.
  public var deadWeight: [ListHits] { lists.filter { $0.queries == 0 && $0.list != "deny rules" } }

  /// Lists with hits of which every one is also blocked by another list of the profile (none only
  /// theirs), and that no allow rule had to override: removing one changes nothing the logs saw.
  public var safeToRemove: [ListHits] {
    lists.filter { $0.queries > 0 && $0.onlyThis == 0 && $0.allowedQueries == 0 && $0.list != "deny rules" }
  }
}
