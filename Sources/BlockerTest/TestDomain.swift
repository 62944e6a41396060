/// A domain the blocker test probes, with what it stands for.
public struct TestDomain: Sendable, Hashable, Codable {
  /// The name probed, lowercase ASCII (punycode for IDN).
  public var hostname: String
  /// The kind of tracking it does (Ads, Analytics, Error Trackers, Social Trackers, Mix, OEMs), or
  /// `Control` for a domain that must never be blocked.
  public var category: String
  /// Who runs it (Google Ads, Hotjar, Xiaomi…).
  public var provider: String
  /// Whether the user added it (kept in the store) rather than it coming with SaneHosts.
  public var isCustom: Bool

  /// The category of control domains.
  public static let controlCategory = "Control"

  /// Whether it is a control domain: one no blocker should block.
  public var isControl: Bool { category == Self.controlCategory }

  /// Creates a test domain.
  public init(hostname: String, category: String, provider: String, isCustom: Bool = false) {
    self.hostname = hostname
    self.category = category
    self.provider = provider
    self.isCustom = isCustom
  }
}
