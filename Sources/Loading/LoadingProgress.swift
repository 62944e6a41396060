/// How far a load has got: an optional message, an optional percentage and whether it is being cancelled.
///
/// `percent` is always within `0...100` (or `nil`): initialisers and decoding clamp out-of-range values
/// and turn NaN into `nil`.
public struct LoadingProgress: Sendable, Hashable, Codable {
  /// A human-readable description of the current step, such as "Downloading hosts file".
  public let message: String?
  /// The completed share of the work in `0...100`, or `nil` when it is unknown.
  public let percent: Double?
  /// Whether the load has been asked to cancel and is winding down.
  public let isCancelled: Bool
  /// Set while waiting to try again (see `retrying(attempt:of:)`).
  public let retry: Retry?

  /// Creates a progress value; `percent` is clamped to `0...100` and NaN becomes `nil`.
  public init(message: String? = nil, percent: Double? = nil, isCancelled: Bool = false, retry: Retry? = nil) {
    self.message = message
    self.percent = percent.flatMap(Self.clampedPercent)
    self.isCancelled = isCancelled
    self.retry = retry
  }

  /// Creates a progress value from a `fraction` of `0...1`, clamped the same way (NaN gives no percent).
  public init(message: String? = nil, fraction: Double, isCancelled: Bool = false, retry: Retry? = nil) {
    self.init(message: message, percent: fraction * 100, isCancelled: isCancelled, retry: retry)
  }

  /// The completed share of the work in `0...1`, or `nil` when it is unknown.
  public var fraction: Double? {
    percent.map { $0 / 100 }
  }

  /// Returns a copy of this progress (same message and percent) marked as being cancelled.
  public func markingCancelled() -> LoadingProgress {
    LoadingProgress(message: message, percent: percent, isCancelled: true, retry: retry)
  }

  private enum CodingKeys: String, CodingKey {
    case message, percent, isCancelled, retry
  }

  /// Decodes a progress value, clamping `percent` like the initialisers do; `isCancelled` defaults to `false`.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      message: try container.decodeIfPresent(String.self, forKey: .message),
      percent: try container.decodeIfPresent(Double.self, forKey: .percent),
      isCancelled: try container.decodeIfPresent(Bool.self, forKey: .isCancelled) ?? false,
      retry: try container.decodeIfPresent(Retry.self, forKey: .retry)
    )
  }

  private static func clampedPercent(_ percent: Double) -> Double? {
    guard !percent.isNaN else { return nil }
    return min(max(percent, 0), 100)
  }
}
