/// A Sendable handle an operation uses to publish its `LoadingProgress` while it runs.
public struct ProgressReporter: Sendable {
  private let sink: @Sendable (LoadingProgress) -> Void

  /// Creates a reporter that hands every reported progress to `sink`.
  public init(_ sink: @escaping @Sendable (LoadingProgress) -> Void) {
    self.sink = sink
  }

  /// Publishes `progress`.
  public func report(_ progress: LoadingProgress) {
    sink(progress)
  }

  /// Publishes a progress made of `message` and `percent` (clamped to `0...100`).
  public func report(message: String? = nil, percent: Double? = nil) {
    sink(LoadingProgress(message: message, percent: percent))
  }
}
