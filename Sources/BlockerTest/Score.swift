import Foundation

/// The one scoring function: blocked ÷ (blocked + reachable + leaking), with the inconclusive count beside it.
public struct Score: Sendable, Hashable, Codable {
  /// How strong the blocking is.
  public enum Rating: String, Sendable, Hashable, Codable {
    /// 60 % or more blocked.
    case strong
    /// 30 % to under 60 %.
    case moderate
    /// Under 30 %.
    case weak
    /// Nothing conclusive to score.
    case unknown
  }

  /// Domains blocked.
  public var blocked: Int
  /// Domains reachable.
  public var reachable: Int
  /// Domains whose addresses are blocked but that leak a real address (HTTPS record hints, a CNAME chain).
  public var leaking: Int
  /// Domains with no conclusion (not part of the percentage).
  public var inconclusive: Int

  /// Creates a score from counts.
  public init(blocked: Int = 0, reachable: Int = 0, leaking: Int = 0, inconclusive: Int = 0) {
    self.blocked = blocked
    self.reachable = reachable
    self.leaking = leaking
    self.inconclusive = inconclusive
  }

  /// Counts the outcomes.
  public init<S: Sequence>(_ outcomes: S) where S.Element == Outcome {
    self.init()
    for outcome in outcomes {
      switch outcome {
      case .blocked: blocked += 1
      case .reachable: reachable += 1
      case .leaking: leaking += 1
      case .inconclusive: inconclusive += 1
      }
    }
  }

  /// All domains counted.
  public var total: Int { blocked + reachable + leaking + inconclusive }

  /// Domains not blocked, a leak included: what a saved run's summary counts as reachable.
  public var notBlocked: Int { reachable + leaking }

  /// Blocked as a percentage of the conclusive outcomes; nil when there are none.
  public var percent: Double? {
    let conclusive = blocked + reachable + leaking
    return conclusive == 0 ? nil : Double(blocked) * 100 / Double(conclusive)
  }

  /// The rating: strong ≥ 60, moderate ≥ 30, weak below.
  public var rating: Rating {
    guard let percent else { return .unknown }
    return percent >= 60 ? .strong : percent >= 30 ? .moderate : .weak
  }

  /// “72 % (strong), 3 inconclusive” or “no conclusive result”.
  public var summary: String {
    guard let percent else { return "no conclusive result (\(inconclusive) inconclusive)" }
    let rounded = String(format: "%.0f", percent)
    return "\(rounded) % (\(rating.rawValue))" + (inconclusive > 0 ? ", \(inconclusive) inconclusive" : "")
  }

  enum CodingKeys: String, CodingKey { case blocked, reachable, leaking, inconclusive, percent, rating }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(blocked, forKey: .blocked)
    try container.encode(reachable, forKey: .reachable)
    try container.encode(leaking, forKey: .leaking)
    try container.encode(inconclusive, forKey: .inconclusive)
    try container.encode(percent.map { ($0 * 10).rounded() / 10 }, forKey: .percent)
    try container.encode(rating, forKey: .rating)
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      blocked: try container.decode(Int.self, forKey: .blocked),
      reachable: try container.decode(Int.self, forKey: .reachable),
      // Reports saved before leaks were told apart have none.
      leaking: try container.decodeIfPresent(Int.self, forKey: .leaking) ?? 0,
      inconclusive: try container.decode(Int.self, forKey: .inconclusive))
  }
}
