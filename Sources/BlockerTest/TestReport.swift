import Foundation

/// One probed domain's result.
public struct DomainResult: Sendable, Hashable, Codable {
  /// The domain.
  public var hostname: String
  /// Its category.
  public var category: String
  /// Its provider.
  public var provider: String
  /// blocked, reachable, leaking or inconclusive.
  public var outcome: Outcome
  /// Why, in a few words.
  public var reason: String
  /// Addresses it resolved to, if any.
  public var addresses: [String]
  /// The CNAME chain of its answer, the name first, when it had one (absent in reports before it).
  public var chain: [String]?
  /// How long the probe took, in milliseconds.
  public var milliseconds: Int
  /// For a reachable domain: the sources in the store that list it (“which list would block this?”).
  public var listedBy: [String]?
  /// The user's allow or deny rule that decides the name in the active profile
  /// (“allowed by your rule doubleclick.net”), filled by `annotated(with:)`.
  public var rule: String?

  /// Creates a result.
  public init(domain: TestDomain, verdict: Verdict, milliseconds: Int, listedBy: [String]? = nil) {
    hostname = domain.hostname
    category = domain.category
    provider = domain.provider
    outcome = verdict.outcome
    reason = verdict.reason
    addresses = verdict.addresses
    chain = verdict.chain
    self.milliseconds = milliseconds
    self.listedBy = listedBy
  }
}

/// A named group's score (a category or a provider).
public struct GroupScore: Sendable, Hashable, Codable {
  /// The category or provider.
  public var name: String
  /// Its score.
  public var score: Score
}

/// The result of a blocker test: every domain's outcome, and the scores.
///
/// Its JSON form is the documented, stable schema of `--json` and `--export json`
/// (`docs/test-report.md`); `schemaVersion` changes only when a field changes meaning or goes away.
public struct TestReport: Sendable, Hashable, Codable {
  /// The schema version of the JSON form.
  public var schemaVersion = 1
  /// The run's id in the store's history (nil until saved).
  public var id: Int64?
  /// When the run started.
  public var startedAt: Date
  /// How long it took, in milliseconds.
  public var milliseconds: Int
  /// How it probed.
  public var probe: ProbeKind
  /// What it asked (“system resolver”, “127.0.0.1:53”).
  public var target: String
  /// The per-probe timeout, in milliseconds.
  public var timeoutMilliseconds: Int
  /// The control domains' results.
  public var controls: [DomainResult]
  /// Every tested domain's result, in registry order.
  public var results: [DomainResult]
  /// Things the user should know (a blocked control domain, a run cut short).
  public var warnings: [String]
  /// With `--pihole`: which of the Pi-hole's lists and rules cover the tested domains.
  public var coverage: Coverage?

  /// Which of a blocker's lists and rules cover the tested domains, as the blocker itself reports it.
  public struct Coverage: Sendable, Hashable, Codable {
    /// One list or rule and the tested domains it covers.
    public struct Source: Sendable, Hashable, Codable {
      /// The list's address, or `deny exact: name` / `deny regex: pattern` for a rule.
      public var name: String
      /// The tested domains it covers.
      public var domains: [String]

      /// Creates a source's coverage.
      public init(name: String, domains: [String]) {
        self.name = name
        self.domains = domains
      }
    }

    /// Every list or rule that covers at least one tested domain, most domains first.
    public var sources: [Source]
    /// Tested domains no list or rule covers.
    public var uncovered: [String]
    /// Tested domains an allow rule or allow list exempts.
    public var allowed: [String]

    /// Creates a coverage report.
    public init(sources: [Source], uncovered: [String], allowed: [String]) {
      self.sources = sources
      self.uncovered = uncovered
      self.allowed = allowed
    }
  }

  /// Creates a report.
  public init(
    id: Int64? = nil, startedAt: Date, milliseconds: Int, probe: ProbeKind, target: String,
    timeoutMilliseconds: Int, controls: [DomainResult], results: [DomainResult], warnings: [String] = []
  ) {
    self.id = id
    self.startedAt = startedAt
    self.milliseconds = milliseconds
    self.probe = probe
    self.target = target
    self.timeoutMilliseconds = timeoutMilliseconds
    self.controls = controls
    self.results = results
    self.warnings = warnings
  }

  /// The overall score.
  public var score: Score { Score(results.map(\.outcome)) }

  /// The warning that goes with the score wherever it is shown: control domains were blocked, so the
  /// blocker over-blocks and the score may flatter it. Nil when every control domain was reachable.
  public var scoreWarning: String? {
    let blocked = controls.filter { $0.outcome == .blocked }.map(\.hostname)
    guard !blocked.isEmpty else { return nil }
    return
      "\(blocked.count) of \(controls.count) control domains blocked (\(blocked.joined(separator: ", "))): the blocker over-blocks"
  }

  /// Each category's score, in first-seen order.
  public var categories: [GroupScore] { Self.groups(results, by: \.category) }

  /// Each provider's score, in first-seen order.
  public var providers: [GroupScore] { Self.groups(results, by: \.provider) }

  /// The slowest probes, slowest first.
  public func slowest(_ count: Int) -> [DomainResult] {
    Array(results.sorted { $0.milliseconds > $1.milliseconds }.prefix(count))
  }

  static func groups(_ results: [DomainResult], by key: KeyPath<DomainResult, String>) -> [GroupScore] {
    var order: [String] = []
    var outcomes: [String: [Outcome]] = [:]
    for result in results {
      let name = result[keyPath: key]
      if outcomes[name] == nil { order.append(name) }
      outcomes[name, default: []].append(result.outcome)
    }
    return order.map { GroupScore(name: $0, score: Score(outcomes[$0]!)) }
  }

  enum CodingKeys: String, CodingKey {
    case schemaVersion, id, startedAt, milliseconds, probe, target, timeoutMilliseconds, score, scoreWarning, categories
    case providers
    case controls, results, warnings, coverage
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(schemaVersion, forKey: .schemaVersion)
    try container.encode(id, forKey: .id)
    try container.encode(startedAt, forKey: .startedAt)
    try container.encode(milliseconds, forKey: .milliseconds)
    try container.encode(probe, forKey: .probe)
    try container.encode(target, forKey: .target)
    try container.encode(timeoutMilliseconds, forKey: .timeoutMilliseconds)
    try container.encode(score, forKey: .score)
    try container.encodeIfPresent(scoreWarning, forKey: .scoreWarning)
    try container.encode(categories, forKey: .categories)
    try container.encode(providers, forKey: .providers)
    try container.encode(controls, forKey: .controls)
    try container.encode(results, forKey: .results)
    try container.encode(warnings, forKey: .warnings)
    try container.encodeIfPresent(coverage, forKey: .coverage)
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    schemaVersion = try container.decode(Int.self, forKey: .schemaVersion)
    id = try container.decodeIfPresent(Int64.self, forKey: .id)
    startedAt = try container.decode(Date.self, forKey: .startedAt)
    milliseconds = try container.decode(Int.self, forKey: .milliseconds)
    probe = try container.decode(ProbeKind.self, forKey: .probe)
    target = try container.decode(String.self, forKey: .target)
    timeoutMilliseconds = try container.decode(Int.self, forKey: .timeoutMilliseconds)
    controls = try container.decode([DomainResult].self, forKey: .controls)
    results = try container.decode([DomainResult].self, forKey: .results)
    warnings = try container.decode([String].self, forKey: .warnings)
    coverage = try container.decodeIfPresent(Coverage.self, forKey: .coverage)
  }
}
